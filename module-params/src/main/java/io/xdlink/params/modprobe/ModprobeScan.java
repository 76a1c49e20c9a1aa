package io.xdlink.params.modprobe;

import java.util.List;

/**
 * The modprobe.d configuration of one host, as modprobe would read it.
 *
 * @param root     the directory the search path was resolved under ({@code /} on a live host)
 * @param files    the files modprobe reads, in the order it reads them (by file name, whatever the directory)
 * @param shadowed files modprobe skips because a directory of higher precedence has a file of the same name
 * @param problems what could not be read (unreadable files, sub-directories modprobe does not descend into)
 */
public record ModprobeScan(String root, List<ModprobeFile> files, List<Shadowed> shadowed,
                           List<ModprobeProblem> problems) {
    public ModprobeScan {
        files = List.copyOf(files);
        shadowed = List.copyOf(shadowed);
        problems = List.copyOf(problems);
    }

    /**
     * A file that modprobe never reads.
     *
     * @param path the file skipped
     * @param by   the file of the same name that modprobe reads instead
     */
    public record Shadowed(String path, String by) {
    }
}
