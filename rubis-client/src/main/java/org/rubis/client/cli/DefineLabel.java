package org.rubis.client.cli;

import java.util.List;
import org.rubis.format.cli.WholeWordHelp;
import picocli.CommandLine.Help;
import picocli.CommandLine.Help.Ansi.IStyle;
import picocli.CommandLine.Help.Ansi.Text;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Help that shows the {@code -D} option as users type it, {@code -Dkey=value}, instead of
 * picocli's {@code -D=key=value} (which would set a key named "=key"); lines break at spaces only
 * ({@link WholeWordHelp}).
 */
public final class DefineLabel {

    private DefineLabel() {}

    public static Help help(CommandSpec spec, Help.ColorScheme colors) {
        return new WholeWordHelp(spec, colors) {
            @Override
            public Help.IParamLabelRenderer parameterLabelRenderer() {
                return wrap(super.parameterLabelRenderer(), true);
            }

            @Override
            public Help.IParamLabelRenderer createDefaultParamLabelRenderer() {
                return wrap(super.createDefaultParamLabelRenderer(), true);
            }
        };
    }

    /**
     * In the option list, picocli joins a short-only option and its label with {@link Help.IParamLabelRenderer#separator};
     * -D is the only short-only option, so the list's renderer has none.
     */
    private static Help.IParamLabelRenderer wrap(Help.IParamLabelRenderer standard, boolean optionList) {
        return new Help.IParamLabelRenderer() {
            @Override
            public Text renderParameterLabel(ArgSpec arg, Help.Ansi ansi, List<IStyle> styles) {
                if (arg instanceof OptionSpec o && o.longestName().equals("-D")) {
                    return ansi.new Text(o.paramLabel());
                }
                return standard.renderParameterLabel(arg, ansi, styles);
            }

            @Override
            public String separator() {
                return optionList ? "" : standard.separator();
            }
        };
    }
}
