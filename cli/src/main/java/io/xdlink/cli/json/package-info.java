/**
 * A small JSON formatter for the commands' {@code --json} output. The project allows no JSON library, and output
 * needs only writing: values are plain Java maps, lists, strings, numbers, booleans and nulls, written with every
 * string escaped so text a peer or a file chose cannot break the document.
 */
package io.xdlink.cli.json;
