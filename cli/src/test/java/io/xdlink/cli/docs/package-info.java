/**
 * Checks of the documentation against the code: README.md and every page in docs/ may name only commands the
 * {@code xdlink} command line has, parameters the registry knows, methods that exist and files that exist. The
 * checks read Markdown with a small reader of their own ({@link io.xdlink.cli.docs.Markdown}) that knows code spans,
 * code blocks, headings and links, which is all the pages use.
 */
package io.xdlink.cli.docs;
