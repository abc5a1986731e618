// Runs a wasm32-wasip1 program under Node.js's WASI: standard input, output and error are the
// process's, the folder DIR is the program's /data, and its exit code is this one's.
//
//   node scripts/wasi_run.mjs PROGRAM.wasm DIR [ARGS...]
import { readFile } from "node:fs/promises";
import { WASI } from "node:wasi";
import process from "node:process";

const [program, dir, ...args] = process.argv.slice(2);
if (!program || !dir) {
  console.error("usage: node scripts/wasi_run.mjs PROGRAM.wasm DIR [ARGS...]");
  process.exit(2);
}
const wasi = new WASI({
  version: "preview1",
  args: [program, ...args],
  env: {},
  preopens: { "/data": dir },
  returnOnExit: true,
});
const module = await WebAssembly.compile(await readFile(program));
const instance = await WebAssembly.instantiate(module, wasi.getImportObject());
process.exitCode = wasi.start(instance);
