/**
 * {@code xdlink doctor}: finds, in a second, each failure that cost a user an evening in the field, and says how to
 * fix it. Every {@link io.xdlink.cli.doctor.Check} reads the host under a root (never writes, needs no privileges) and
 * returns {@link io.xdlink.cli.doctor.CheckResult}s of ok, warn or fail. The knowledge each check applies lives with
 * the module that owns it (link judgements in the XDomain module's sysfs view, parameter names and DMA planning in
 * module-params); what no module owns lives here: reading shared libraries' symbol tables for rdma-core providers and
 * collective-library plugins, and the power settings the field measured.
 */
package io.xdlink.cli.doctor;
