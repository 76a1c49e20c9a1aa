package io.xdlink.cli.bench;

import io.xdlink.cli.UsageException;
import io.xdlink.params.Origin;
import io.xdlink.params.ParamException;
import io.xdlink.params.ParamSources;
import io.xdlink.params.Params;

import java.util.Map;

/** The parameters a benchmark runs with: the usual sources, then this command line's explicit values on top. */
final class BenchParams {
    private BenchParams() {
    }

    static Params load(Map<String, String> explicit) {
        try {
            return ParamSources.system().explicit(explicit, Origin.explicit("command line")).load();
        } catch (ParamException e) {
            throw new UsageException(e.getMessage());
        }
    }
}
