package org.rubis.client.preflight;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.rubis.client.preflight.ProbeConnection.Page;
import org.rubis.client.workload.Interaction;
import org.rubis.client.workload.TransitionTable;
import org.rubis.client.workload.UrlLayout;
import org.rubis.client.workload.WorkloadData;
import org.rubis.client.workload.WorkloadModel;

/**
 * Whether a target can carry the configured workload, asked before a run: a real RUBiS deployment has its own
 * database, whose users, items, regions and categories the client's configuration must not exceed (the client logs in
 * as {@code user1..userN} and sends region and category names from its files), and its own keep-alive policy, which
 * decides the connection counts a run will show. Each check reads pages only (the pages that write are not probed),
 * on one keep-alive connection; each problem is one line naming the configuration key and the fix.
 */
public final class Preflight {

    /** Requests the keep-alive probe sends on one connection before it calls the server's limit "none seen". */
    public static final int KEEPALIVE_PROBE_REQUESTS = 200;

    /** The states that write to the database: never probed. */
    private static final Set<Interaction> WRITES = EnumSet.of(
            Interaction.REGISTER_USER,
            Interaction.REGISTER_ITEM,
            Interaction.STORE_BID,
            Interaction.STORE_BUY_NOW,
            Interaction.STORE_COMMENT);

    private static final Pattern TITLE_OR_ERROR = Pattern.compile("(?s)ERROR[^<]*(?:<[^>]*>\\s*)*([^<]{0,160})");

    private final WorkloadModel model;
    private final String host;
    private final int port;
    private final int timeoutMs;
    private final boolean embeddedSizes;
    private final int oldItems;
    private final String regionsFile;
    private final String categoriesFile;

    /**
     * @param model          the run's workload (table, URL layout, data files, database policy)
     * @param target         the base URL (http only)
     * @param timeoutMs      connect and read timeout of each probe
     * @param oldItems       the items the database must hold at least (item ids 1..oldItems are probed at the top)
     * @param regionsFile    the regions file's name, for the words
     * @param categoriesFile the categories file's name, for the words
     * @param embeddedSizes  the target is the embedded server started with this configuration (the words then name
     *                       {@code server_size} too)
     */
    public Preflight(
            WorkloadModel model,
            String target,
            int timeoutMs,
            int oldItems,
            String regionsFile,
            String categoriesFile,
            boolean embeddedSizes) {
        URI u = URI.create(target);
        if (!"http".equalsIgnoreCase(u.getScheme()) || u.getHost() == null) {
            throw new IllegalArgumentException("the pre-flight probes http://HOST:PORT targets, not " + target);
        }
        this.model = model;
        this.host = u.getHost();
        this.port = u.getPort() < 0 ? 80 : u.getPort();
        this.timeoutMs = timeoutMs;
        this.oldItems = oldItems;
        this.regionsFile = regionsFile;
        this.categoriesFile = categoriesFile;
        this.embeddedSizes = embeddedSizes;
    }

    /** Runs every check; a target that does not answer at all is one problem and ends the checks. */
    public PreflightReport check() {
        return check(true);
    }

    /**
     * The checks a run makes before its load: all but the keep-alive probe, whose 200 requests the run would spend on
     * the server before measuring it.
     */
    public PreflightReport checkPages() {
        return check(false);
    }

    private PreflightReport check(boolean keepAlive) {
        PreflightReport report = new PreflightReport(host + ":" + port);
        try (ProbeConnection c = new ProbeConnection(host, port, timeoutMs)) {
            Page home;
            try {
                home = c.get(model.layout().page("index.html"));
            } catch (IOException e) {
                report.problem(
                        "target",
                        "http://" + host + ":" + port + model.layout().page("index.html") + " did not answer ("
                                + e.getMessage() + "): is the server up, and is httpd_use_version ("
                                + model.layout().page("") + ") its URL layout?");
                return report;
            }
            if (home.status() >= 400) {
                report.problem(
                        "target",
                        model.layout().page("index.html") + " answered HTTP " + home.status()
                                + ": is httpd_use_version (" + model.layout().page("") + ") this server's URL layout?");
                return report;
            }
            pages(c, report);
            users(c, report);
            items(c, report);
            regions(c, report);
            categories(c, report);
        }
        if (keepAlive) {
            keepAlive(report);
        }
        return report;
    }

    /** Every state the transition table can reach answers (writes aside) with a page that is no ERROR page. */
    private void pages(ProbeConnection c, PreflightReport report) {
        TransitionTable t = model.table();
        List<String> failed = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        int probed = 0;
        for (Interaction state : Interaction.values()) {
            if (!reachable(t, state.ordinal())) {
                continue;
            }
            if (WRITES.contains(state)) {
                skipped.add(state.label());
                continue;
            }
            String path = probePath(state);
            probed++;
            String problem = fetchProblem(c, path);
            if (problem != null) {
                failed.add(state.label() + " (" + path + ": " + problem + ")");
            }
        }
        if (failed.isEmpty()) {
            report.ok(
                    "pages",
                    probed + " states of " + t.name() + " answered"
                            + (skipped.isEmpty() ? "" : "; not probed, they write: " + String.join(", ", skipped)));
        } else {
            for (String f : failed) {
                report.problem("pages", f);
            }
        }
    }

    private static boolean reachable(TransitionTable t, int state) {
        if (state == Interaction.HOME.ordinal()) {
            return true;
        }
        for (int from = 0; from < t.columns(); from++) {
            if (t.probability(state, from) > 0) {
                return true;
            }
        }
        return false;
    }

    /** A read-only request of the state, with the parameters the workload sends (user 1, item 1, the first names). */
    private String probePath(Interaction state) {
        UrlLayout l = model.layout();
        String region = enc(model.data().regions().getFirst());
        String category = enc(model.data().categories().getFirst().name());
        String cat = String.valueOf(id(0));
        String login = "nickname=user1&password=password1";
        int per = model.itemsPerPage();
        return switch (state) {
            case HOME -> l.page("index.html");
            case REGISTER -> l.page("register.html");
            case BROWSE -> l.page("browse.html");
            case SELL -> l.page("sell.html");
            case ABOUT_ME_AUTH -> l.page("about_me.html");
            case BROWSE_CATEGORIES -> l.script("BrowseCategories");
            case BROWSE_REGIONS -> l.script("BrowseRegions");
            case BROWSE_CATEGORIES_IN_REGION -> l.script("BrowseCategories") + "?region=" + region;
            case SEARCH_ITEMS_IN_CATEGORY ->
                l.script("SearchItemsByCategory") + "?category=" + cat + "&categoryName=" + category
                        + "&page=0&nbOfItems=" + per;
            case SEARCH_ITEMS_IN_REGION ->
                l.script("SearchItemsByRegion") + "?region=" + id(0) + "&category=" + cat + "&categoryName=" + category
                        + "&page=0&nbOfItems=" + per;
            case VIEW_ITEM -> l.script("ViewItem") + "?itemId=1";
            case VIEW_USER_INFO -> l.script("ViewUserInfo") + "?userId=1";
            case VIEW_BID_HISTORY -> l.script("ViewBidHistory") + "?itemId=1";
            case BUY_NOW_AUTH -> l.script("BuyNowAuth") + "?itemId=1";
            case BUY_NOW -> l.script("BuyNow") + "?itemId=1&" + login;
            case PUT_BID_AUTH -> l.script("PutBidAuth") + "?itemId=1";
            case PUT_BID -> l.script("PutBid") + "?itemId=1&" + login;
            case PUT_COMMENT_AUTH -> l.script("PutCommentAuth") + "?itemId=1&to=1";
            case PUT_COMMENT -> l.script("PutComment") + "?itemId=1&to=1&" + login;
            case SELECT_CATEGORY_TO_SELL_ITEM -> l.script("BrowseCategories") + "?" + login;
            case SELL_ITEM_FORM -> l.script("SellItemForm") + "?user=1&category=" + cat;
            case ABOUT_ME -> l.script("AboutMe") + "?" + login;
            case REGISTER_USER, REGISTER_ITEM, STORE_BID, STORE_BUY_NOW, STORE_COMMENT ->
                throw new IllegalArgumentException(state + " writes");
        };
    }

    /** The highest user the workload logs in as exists: AboutMe with its password, and ViewUserInfo of its id. */
    private void users(ProbeConnection c, PreflightReport report) {
        int n = model.policy().users();
        String about = model.layout().script("AboutMe") + "?nickname=user" + n + "&password=password" + n;
        String info = model.layout().script("ViewUserInfo") + "?userId=" + n;
        String a = fetchProblem(c, about);
        String v = fetchProblem(c, info);
        if (a == null && v == null) {
            report.ok(
                    "users",
                    "user" + n + " logs in (AboutMe) and ViewUserInfo?userId=" + n + " answers:"
                            + " database_number_of_users = " + n + " fits");
            return;
        }
        report.problem(
                "users",
                (a != null ? about + ": " + a : info + ": " + v) + ": the database has fewer users than"
                        + " database_number_of_users = " + n + " (or not user" + n + "/password" + n
                        + "); set it to the database's count");
    }

    /** The item at the configured count exists (a live or an old item: ViewItem looks in both). */
    private void items(ProbeConnection c, PreflightReport report) {
        if (oldItems <= 0) {
            report.ok("items", "database_number_of_old_items is 0: nothing to probe");
            return;
        }
        String path = model.layout().script("ViewItem") + "?itemId=" + oldItems;
        String p = fetchProblem(c, path);
        if (p == null) {
            report.ok(
                    "items",
                    "ViewItem?itemId=" + oldItems + " answers: the database holds item " + oldItems + " ("
                            + oldItemsKey() + ")");
        } else {
            report.problem(
                    "items",
                    path + ": " + p + ": the database has fewer items than " + oldItemsKey()
                            + "; set it to the database's count");
        }
    }

    private String oldItemsKey() {
        return embeddedSizes
                ? "database_number_of_old_items x server_size = " + oldItems
                : "database_number_of_old_items = " + oldItems;
    }

    /** Every region of the regions file is listed by BrowseRegions (the client sends their names). */
    private void regions(ProbeConnection c, PreflightReport report) {
        listed(
                c,
                report,
                "regions",
                model.layout().script("BrowseRegions"),
                "region=",
                model.data().regions(),
                "database_regions_file (" + regionsFile + ")");
    }

    private void categories(ProbeConnection c, PreflightReport report) {
        listed(
                c,
                report,
                "categories",
                model.layout().script("BrowseCategories"),
                "category=",
                model.data().categories().stream()
                        .map(WorkloadData.Category::name)
                        .toList(),
                "database_categories_file (" + categoriesFile + ")");
    }

    private void listed(
            ProbeConnection c,
            PreflightReport report,
            String what,
            String path,
            String linkParameter,
            List<String> names,
            String key) {
        Page page;
        try {
            page = c.get(path);
        } catch (IOException e) {
            report.problem(what, path + ": " + e.getMessage());
            return;
        }
        String problem = pageProblem(page);
        if (problem != null) {
            report.problem(what, path + ": " + problem);
            return;
        }
        int links = count(page.body(), linkParameter);
        List<String> missing = new ArrayList<>();
        for (String name : names) {
            if (!page.body().contains(name) && !page.body().contains(escape(name))) {
                missing.add(name);
            }
        }
        if (links < names.size() || !missing.isEmpty()) {
            report.problem(
                    what,
                    path + " lists " + links + " " + what + ", " + key + " has " + names.size()
                            + (missing.isEmpty()
                                    ? ""
                                    : "; not listed: " + quoteFirst(missing, 3)
                                            + (missing.size() > 3 ? " and " + (missing.size() - 3) + " more" : ""))
                            + ": use the file the database was populated from");
        } else {
            report.ok(what, links + " listed by " + path + ", all " + names.size() + " of " + key + " among them");
        }
    }

    /**
     * How the server treats a kept-alive connection: index.html requested again and again on one connection until the
     * server closes it (announced with {@code Connection: close}, or silently before a reply) or the probe's limit.
     * A server that closes after N requests makes a run open a connection every N requests per user at least
     * (lighttpd's {@code server.max-keep-alive-requests}, Apache's {@code MaxKeepAliveRequests}).
     */
    private void keepAlive(PreflightReport report) {
        String path = model.layout().page("index.html");
        int carried = 0;
        String how = null;
        try (ProbeConnection c = new ProbeConnection(host, port, timeoutMs)) {
            for (int i = 1; i <= KEEPALIVE_PROBE_REQUESTS; i++) {
                Page p = c.get(path);
                carried++;
                if (p.closedAfter()) {
                    how = "announced (Connection: close)";
                    break;
                }
            }
        } catch (ProbeConnection.ClosedBeforeReply e) {
            how = "without a word (closed before the reply to request " + (carried + 1) + ")";
        } catch (IOException e) {
            report.problem(
                    "keep-alive",
                    "the probe failed after " + carried + " requests on one connection: " + e.getMessage());
            return;
        }
        if (how == null) {
            report.info(
                    "keep-alive",
                    "kept one connection open for " + carried + " requests of " + path + " (no limit seen up to "
                            + KEEPALIVE_PROBE_REQUESTS + ")");
        } else if (carried <= 1) {
            report.info(
                    "keep-alive",
                    "no keep-alive: the server closed the connection after 1 request, " + how
                            + ": a run opens a connection per request");
        } else {
            report.info(
                    "keep-alive",
                    "the server closed one connection after " + carried + " requests, " + how
                            + ": a run opens at least one connection per " + carried + " requests of each user");
        }
    }

    /** The request's problem in a few words, or null when it answered with a page that is no ERROR page. */
    private static String fetchProblem(ProbeConnection c, String path) {
        try {
            return pageProblem(c.get(path));
        } catch (IOException e) {
            return e.getMessage();
        }
    }

    private static String pageProblem(Page p) {
        if (p.status() >= 400) {
            return "HTTP " + p.status();
        }
        if (p.body().contains("ERROR")) {
            Matcher m = TITLE_OR_ERROR.matcher(p.body());
            String said = m.find() ? m.group(0).replaceAll("<[^>]*>", " ") : "ERROR";
            return "ERROR page \"" + said.replaceAll("\\s+", " ").strip() + "\"";
        }
        return null;
    }

    private int id(int zeroBased) {
        return model.oneBasedIds() ? zeroBased + 1 : zeroBased;
    }

    private static int count(String text, String word) {
        int n = 0;
        for (int at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + word.length())) {
            n++;
        }
        return n;
    }

    private static String quoteFirst(List<String> names, int n) {
        return String.join(
                ", ",
                names.subList(0, Math.min(n, names.size())).stream()
                        .map(s -> "\"" + s + "\"")
                        .toList());
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "Preflight[%s:%d]", host, port);
    }
}
