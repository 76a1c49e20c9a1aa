package io.xdlink.cli.bench;

import io.xdlink.cli.UsageException;
import io.xdlink.params.Origin;
import io.xdlink.params.ParamException;
import io.xdlink.params.ParamSources;
import io.xdlink.params.Params;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Collections;

/** The parameters a benchmark runs with: the usual sources, then this command line's explicit values on top. */
final class BenchParams {
    private BenchParams() {
    }

    /**
     * The command line's parameters.
     *
     * @param implied what {@code --loopback} and {@code --link} stand for, applied first
     * @param given   {@code -P} and {@code --stripe-min} settings in command-line order; the later of two settings
     *                of one parameter wins, in whatever spelling either named it
     */
    record Explicit(Map<String, String> implied, List<Map.Entry<String, String>> given) {
        Explicit {
            implied = Collections.unmodifiableMap(new LinkedHashMap<>(implied));
            given = List.copyOf(given);
        }

        static Explicit none() {
            return new Explicit(Map.of(), List.of());
        }
    }

    static Params load(Explicit explicit) {
        return load(ParamSources.system(), explicit);
    }

    static Params load(ParamSources sources, Explicit explicit) {
        try {
            return sources.explicit(explicit.implied(), Origin.explicit("--loopback"))
                    .explicit(explicit.given(), Origin.explicit("command line")).load();
        } catch (ParamException e) {
            throw new UsageException(e.getMessage());
        }
    }
}
