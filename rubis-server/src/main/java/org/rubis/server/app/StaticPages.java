package org.rubis.server.app;

/** The five static HTML pages of the PHP layout, built once. */
final class StaticPages {

    private StaticPages() {}

    static final String INDEX = page(
            "Home",
            "<h2>Welcome to RUBiS's home page !</h2>\n"
                    + "<p>RUBiS is an auction site prototype modelled after eBay.com.</p>\n"
                    + "<p><a href=\"/PHP/browse.html\">Browse</a> the items for sale, <a href=\"/PHP/sell.html\">sell</a> an item, "
                    + "<a href=\"/PHP/register.html\">register</a> or look at <a href=\"/PHP/about_me.html\">your account</a>.</p>\n");

    static final String REGISTER = page(
            "Register",
            "<h2>Register as a new user</h2>\n"
                    + "<form action=\"/PHP/RegisterUser.php\" method=GET>\n<table>\n"
                    + "<tr><td>First Name:<td><input type=text size=20 name=firstname>\n"
                    + "<tr><td>Last Name:<td><input type=text size=20 name=lastname>\n"
                    + "<tr><td>Nick Name:<td><input type=text size=20 name=nickname>\n"
                    + "<tr><td>Email:<td><input type=text size=50 name=email>\n"
                    + "<tr><td>Password:<td><input type=password size=20 name=password>\n"
                    + "<tr><td>Region:<td><input type=text size=20 name=region>\n"
                    + "</table>\n<input type=submit value=\"Register now!\">\n</form>\n");

    static final String BROWSE = page(
            "Browse",
            "<h2>Browse</h2>\n<ul>\n"
                    + "<li><a href=\"/PHP/BrowseCategories.php\">Browse all items by category</a>\n"
                    + "<li><a href=\"/PHP/BrowseRegions.php\">Browse all items by region</a>\n</ul>\n");

    static final String SELL = page(
            "Sell",
            "<h2>Sell your item</h2>\n<p>You must be registered to sell an item.</p>\n"
                    + "<form action=\"/PHP/BrowseCategories.php\" method=GET>\n<table>\n"
                    + "<tr><td>Your nick name:<td><input type=text size=20 name=nickname>\n"
                    + "<tr><td>Your password:<td><input type=password size=20 name=password>\n"
                    + "</table>\n<input type=submit value=\"Log In!\">\n</form>\n");

    static final String ABOUT_ME = page(
            "About me",
            "<h2>About me</h2>\n<p>Log in to see your bids, items and comments.</p>\n"
                    + "<form action=\"/PHP/AboutMe.php\" method=GET>\n<table>\n"
                    + "<tr><td>Your nick name:<td><input type=text size=20 name=nickname>\n"
                    + "<tr><td>Your password:<td><input type=password size=20 name=password>\n"
                    + "</table>\n<input type=submit value=\"Log In!\">\n</form>\n");

    private static String page(String title, String body) {
        StringBuilder b = Html.begin(title);
        b.append(body);
        return Html.end(b);
    }
}
