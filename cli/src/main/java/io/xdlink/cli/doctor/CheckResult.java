package io.xdlink.cli.doctor;

/**
 * One line of doctor's report.
 *
 * @param id      stable name of what was checked ({@code links/0-1}, {@code rdma/odl_tb5}), for scripts
 * @param status  ok, warn or fail
 * @param summary what was seen, one line
 * @param fix     what to do, one line; empty when nothing needs doing
 */
public record CheckResult(String id, Status status, String summary, String fix) {
    public CheckResult {
        if (id == null || id.isBlank() || status == null || summary == null || fix == null) {
            throw new IllegalArgumentException("a check result needs an id, a status, a summary and a fix");
        }
        if (summary.contains("\n") || fix.contains("\n")) {
            throw new IllegalArgumentException(id + ": summary and fix are one line each");
        }
    }

    public static CheckResult ok(String id, String summary) {
        return new CheckResult(id, Status.OK, summary, "");
    }

    public static CheckResult warn(String id, String summary, String fix) {
        return new CheckResult(id, Status.WARN, summary, fix);
    }

    public static CheckResult fail(String id, String summary, String fix) {
        return new CheckResult(id, Status.FAIL, summary, fix);
    }
}
