/**
 * Running agents: {@link io.xdlink.rails.agent.AgentRunner} gives an agent a thread of its own with an idle
 * strategy ({@link io.xdlink.rails.agent.BusySpinIdleStrategy}, {@link io.xdlink.rails.agent.BackoffIdleStrategy}),
 * and {@link io.xdlink.rails.agent.VirtualTimeDriver} steps agents in invoker mode on a virtual clock, so the
 * simulator and the tests run whole fabrics deterministically without a thread or a sleep. The same agent runs
 * either way; only who calls {@code doWork()} changes. {@link io.xdlink.rails.agent.TimerSlack} keeps a thread's
 * short parks short.
 */
package io.xdlink.rails.agent;
