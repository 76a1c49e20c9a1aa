package io.xdlink.params.dma;

import io.xdlink.params.files.BoundedFile;
import io.xdlink.params.modprobe.KernelArgs;
import io.xdlink.params.modprobe.SafeText;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Arrays;

/**
 * Reads a host's DMA facts under a root directory ({@code /} on a live host, an in-memory tree in tests):
 * <ul>
 *   <li>{@code /proc/meminfo}: {@code CmaTotal} and {@code CmaFree} in kB; the lines exist only in kernels built
 *       with CONFIG_CMA;</li>
 *   <li>{@code /sys/kernel/iommu_groups}: no groups means no IOMMU translates anything; each group's {@code type}
 *       says {@code identity} (passthrough) or {@code DMA}/{@code DMA-FQ} (translated). What the kernel reports here
 *       is what it does, so it wins over the command line;</li>
 *   <li>{@code /proc/cmdline}: {@code iommu=pt}, {@code iommu=nopt}, {@code iommu=off}, {@code iommu.passthrough=},
 *       {@code amd_iommu=off}, {@code intel_iommu=off}: used as evidence, and to decide when groups exist but do not
 *       say their type. A later argument overrides an earlier one, as in the kernel.</li>
 * </ul>
 * A missing or malformed file is never an exception: it becomes a note, and the reader assumes the case in which a
 * large ring can fail (no CMA, DMA not translated), so a plan is never more optimistic than the host.
 */
public final class DmaFactsReader {
    /** The most read from any one of these files; real ones are a few kilobytes. */
    static final int MAX_READ = 1 << 20;
    /** IOMMU groups looked at; a large server has a few hundred. */
    static final int MAX_GROUPS = 8192;

    private DmaFactsReader() {
    }

    /** Reads the facts of the host under {@code root}. */
    public static DmaFacts read(Path root) {
        List<String> notes = new ArrayList<>();
        Cma cma = readCma(root.resolve("proc/meminfo"), notes);
        Cmdline cmdline = readCmdline(root.resolve("proc/cmdline"), notes);
        Groups groups = readGroups(root.resolve("sys/kernel/iommu_groups"), notes);
        Decision d = decide(groups, cmdline);
        return new DmaFacts(cma.present, cma.total, cma.free, d.mode, d.evidence, notes);
    }

    record Cma(boolean present, long total, long free) {
    }

    /** What the command line asks for, and the argument that asked. */
    record Cmdline(IommuMode mode, String argument) {
    }

    record Groups(boolean present, int identity, int translated, int other, int untyped) {
        int total() {
            return identity + translated + other + untyped;
        }
    }

    private record Decision(IommuMode mode, String evidence) {
    }

    static Cma readCma(Path meminfo, List<String> notes) {
        String text = readBounded(meminfo, notes, "CMA treated as unavailable");
        if (text == null) {
            return new Cma(false, 0, 0);
        }
        return parseMeminfo(meminfo.toString(), text, notes);
    }

    /** Parses the CmaTotal and CmaFree lines of a meminfo text; everything else is skipped. */
    static Cma parseMeminfo(String name, String text, List<String> notes) {
        long total = -1;
        long free = -1;
        boolean totalSeen = false;
        boolean freeSeen = false;
        boolean bad = false;
        int lineNo = 0;
        for (String line : text.split("\n", -1)) {
            lineNo++;
            int colon = line.indexOf(':');
            if (colon < 0) {
                continue;
            }
            String key = line.substring(0, colon).trim();
            boolean isTotal = key.equals("CmaTotal");
            if (!isTotal && !key.equals("CmaFree")) {
                continue;
            }
            if (isTotal ? totalSeen : freeSeen) {
                notes.add(name + ":" + lineNo + ": " + key + " appears again; the first one is used");
                continue;
            }
            long bytes = kilobytes(line.substring(colon + 1));
            if (bytes < 0) {
                notes.add(name + ":" + lineNo + ": '" + SafeText.clip(line) + "' is not a number of kB; "
                        + "CMA treated as unavailable");
                bad = true;
            }
            if (isTotal) {
                totalSeen = true;
                total = bytes;
            } else {
                freeSeen = true;
                free = bytes;
            }
        }
        if (!totalSeen) {
            if (freeSeen) {
                notes.add(name + ": CmaFree without CmaTotal; CMA treated as unavailable");
            }
            return new Cma(false, 0, 0);
        }
        if (bad || total < 0) {
            return new Cma(true, 0, 0);
        }
        if (!freeSeen) {
            notes.add(name + ": CmaTotal without CmaFree; none of it is counted as free");
            return new Cma(true, total, 0);
        }
        if (free > total) {
            notes.add(name + ": CmaFree exceeds CmaTotal; only CmaTotal is counted as free");
            free = total;
        }
        return new Cma(true, total, free);
    }

    /** {@code "  12345 kB"} in bytes; -1 when it is not that form or does not fit a long. */
    private static long kilobytes(String field) {
        String[] parts = field.trim().split("[ \t]+");
        if (parts.length == 0 || parts.length > 2 || parts[0].isEmpty() || parts[0].length() > 18) {
            return -1;
        }
        if (parts.length == 2 && !parts[1].equals("kB")) {
            return -1;
        }
        for (int i = 0; i < parts[0].length(); i++) {
            char c = parts[0].charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
        }
        long kb = Long.parseLong(parts[0]);
        return kb > Long.MAX_VALUE / 1024 ? -1 : kb * 1024;
    }

    static Cmdline readCmdline(Path cmdline, List<String> notes) {
        String text = readBounded(cmdline, notes, "the kernel command line is not used");
        return text == null ? new Cmdline(null, "") : parseCmdline(text);
    }

    /** The IOMMU mode the kernel command line asks for, or a null mode when it says nothing about it. */
    static Cmdline parseCmdline(String text) {
        IommuMode mode = null;
        String argument = "";
        for (KernelArgs.Arg a : KernelArgs.split(text)) {
            String name = a.name().replace('-', '_');
            IommuMode m = null;
            switch (name) {
                case "iommu" -> {
                    for (String part : a.value().split(",")) {
                        switch (part) {
                            case "pt" -> m = IommuMode.PASSTHROUGH;
                            case "nopt" -> m = IommuMode.TRANSLATED;
                            case "off" -> m = IommuMode.OFF;
                            default -> { }
                        }
                    }
                }
                case "iommu.passthrough" -> {
                    Boolean b = kernelBool(a.value());
                    if (b != null) {
                        m = b ? IommuMode.PASSTHROUGH : IommuMode.TRANSLATED;
                    }
                }
                case "amd_iommu", "intel_iommu" -> {
                    for (String part : a.value().split(",")) {
                        if (part.equals("off")) {
                            m = IommuMode.OFF;
                        }
                    }
                }
                default -> { }
            }
            if (m != null) {
                mode = m;
                argument = a.hasValue() ? a.name() + "=" + a.value() : a.name();
            }
        }
        return new Cmdline(mode, SafeText.clip(argument));
    }

    /** kstrtobool: y/Y/t/T/1 and "on" are true, n/N/f/F/0 and "off" false. */
    private static Boolean kernelBool(String v) {
        String s = v.toLowerCase(Locale.ROOT);
        if (s.equals("on")) {
            return Boolean.TRUE;
        }
        if (s.equals("off")) {
            return Boolean.FALSE;
        }
        if (s.isEmpty()) {
            return null;
        }
        return switch (s.charAt(0)) {
            case 'y', 't', '1' -> Boolean.TRUE;
            case 'n', 'f', '0' -> Boolean.FALSE;
            default -> null;
        };
    }

    static Groups readGroups(Path dir, List<String> notes) {
        if (!Files.isDirectory(dir)) {
            return new Groups(false, 0, 0, 0, 0);
        }
        int identity = 0;
        int translated = 0;
        int other = 0;
        int untyped = 0;
        int seen = 0;
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path group : entries) {
                if (++seen > MAX_GROUPS) {
                    notes.add(dir + ": more than " + MAX_GROUPS + " IOMMU groups; the rest were not read");
                    break;
                }
                Path typeFile = group.resolve("type");
                if (!Files.isRegularFile(typeFile)) {
                    untyped++;
                    continue;
                }
                String type = readBounded(typeFile, notes, "this group's type is unknown");
                if (type == null) {
                    untyped++;
                    continue;
                }
                switch (type.trim()) {
                    case "identity" -> identity++;
                    case "DMA", "DMA-FQ" -> translated++;
                    case "blocked", "unmanaged" -> other++;
                    default -> {
                        other++;
                        notes.add(typeFile + ": unexpected IOMMU domain type '" + SafeText.clip(type.trim()) + "'");
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            notes.add(dir + ": cannot list the IOMMU groups (" + SafeText.clip(String.valueOf(e.getMessage()))
                    + "); their types are unknown");
            return new Groups(true, identity, translated, other, untyped + 1);
        }
        return new Groups(true, identity, translated, other, untyped);
    }

    private static Decision decide(Groups groups, Cmdline cmdline) {
        String asked = cmdline.mode() == null ? "" : " (the kernel command line has " + cmdline.argument() + ")";
        if (!groups.present() || groups.total() == 0) {
            return new Decision(IommuMode.OFF, "there are no IOMMU groups under /sys/kernel/iommu_groups, so no "
                    + "IOMMU translates DMA" + asked);
        }
        if (groups.identity() > 0 && groups.translated() == 0) {
            return new Decision(IommuMode.PASSTHROUGH, "every IOMMU group is identity (passthrough)" + asked);
        }
        if (groups.translated() > 0 && groups.identity() == 0) {
            return new Decision(IommuMode.TRANSLATED, "the IOMMU groups translate DMA (type DMA)" + asked);
        }
        if (groups.translated() > 0) {
            return new Decision(IommuMode.PASSTHROUGH, "the IOMMU groups are mixed (" + groups.identity()
                    + " identity, " + groups.translated() + " translated); planned as passthrough, since the USB4 "
                    + "controller may sit in an identity group" + asked);
        }
        if (cmdline.mode() != null) {
            return new Decision(cmdline.mode(), "the kernel command line has " + cmdline.argument()
                    + " (the IOMMU groups do not say their type)");
        }
        return new Decision(IommuMode.UNKNOWN, "IOMMU groups exist but do not say their type, and the kernel "
                + "command line does not say either; planned as if DMA were not translated");
    }

    /** The file's text, at most {@link #MAX_READ} bytes; null with a note when it cannot be read. */
    private static String readBounded(Path file, List<String> notes, String consequence) {
        try {
            // A FIFO or device under the root would block or never end; /proc and /sys files are regular.
            BoundedFile.requireRegular(file);
        } catch (NoSuchFileException e) {
            notes.add(file + " does not exist; " + consequence);
            return null;
        } catch (IOException | RuntimeException e) {
            notes.add(file + ": " + SafeText.clip(String.valueOf(e.getMessage())) + "; " + consequence);
            return null;
        }
        try (InputStream in = Files.newInputStream(file)) {
            byte[] bytes = in.readNBytes(MAX_READ + 1);
            if (bytes.length > MAX_READ) {
                notes.add(file + ": larger than " + (MAX_READ >> 20) + " MiB; only the first MiB was read");
                bytes = Arrays.copyOf(bytes, MAX_READ);
            }
            return new String(bytes, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            notes.add(file + " does not exist; " + consequence);
            return null;
        } catch (IOException | RuntimeException e) {
            notes.add(file + ": cannot read (" + SafeText.clip(String.valueOf(e.getMessage())) + "); " + consequence);
            return null;
        }
    }
}
