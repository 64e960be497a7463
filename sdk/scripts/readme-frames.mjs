// Writes a TypeScript file that assigns every example frame of protocol/README.md to its type:
// `C {…}` lines to ClientMessage, `S {…}` lines to ServerMessage (a `C` line that is not JSON,
// the README's own broken frame, is skipped). .ci/check-sdk type-checks it with tsc --strict.
//
//   node scripts/readme-frames.mjs <README.md> <protocol.ts> <out.ts>
import { readFile, writeFile } from "node:fs/promises";
import { resolve } from "node:path";

const [readmePath, protocolPath, outPath] = process.argv.slice(2);
if (!readmePath || !protocolPath || !outPath) {
  console.error("usage: readme-frames.mjs <README.md> <protocol.ts> <out.ts>");
  process.exit(2);
}
const lines = (await readFile(readmePath, "utf8")).split("\n");
const module = resolve(protocolPath).replace(/\.ts$/, ".js");
const out = [`import type { ClientMessage, ServerMessage } from ${JSON.stringify(module)};`];
let count = 0;
lines.forEach((line, i) => {
  const m = /^([CS]) (.*)$/.exec(line);
  if (!m) return;
  let frame;
  try {
    frame = JSON.parse(m[2]);
  } catch {
    return;
  }
  const type = m[1] === "C" ? "ClientMessage" : "ServerMessage";
  out.push(`// README line ${i + 1}`);
  out.push(`export const line${i + 1}: ${type} = ${JSON.stringify(frame)};`);
  count += 1;
});
if (count < 30) {
  console.error(`readme-frames: only ${count} frames found in ${readmePath}`);
  process.exit(1);
}
await writeFile(outPath, out.join("\n") + "\n");
console.error(`readme-frames: ${count} frames`);
