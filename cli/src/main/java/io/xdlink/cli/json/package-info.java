/**
 * A small JSON writer for the commands' {@code --json} output ({@link io.xdlink.cli.json.Json}) and a strict reader
 * for the files people hand back to them, benchmark results to plot and cluster results to compare against
 * ({@link io.xdlink.cli.json.JsonReader}); the project allows no JSON library. Values are plain Java maps, lists,
 * strings, numbers, booleans and nulls (the writer also takes {@code Optional}s, empty as null). The writer escapes
 * every string so text a peer or a file chose cannot break the document; the reader refuses deep nesting and
 * anything that is not strict JSON, naming the offset.
 */
package io.xdlink.cli.json;
