// Loads USD files (.usda, .usdc, .usdz) with TinyUSDZ (npm tinyusdz, a
// WASM build of an independent USD parser) and prints, one JSON line per
// file, what it sees: whether it loaded (and its error), the meshes of
// its render scene with their point, triangle and texture-coordinate counts
// and material, each material's base colour texture, the images TinyUSDZ
// decoded (from inside a .usdz, or beside the file), and from the layer
// as TinyUSDZ parsed it (printed back by layerToString) every prim's
// path and type and each Skeleton's joint count.
// Usage: node .ci/load-usd.mjs [--layer] FILE...   Exits 1 when a file fails
// to load. --layer adds the whole layer as TinyUSDZ prints it back.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const dir = path.dirname(require.resolve('tinyusdz/package.json'));
// The package is built for browsers only; it runs in Node once it
// believes it is in one, given its WASM bytes directly.
process.type = 'renderer';
globalThis.window = globalThis;
const { default: init } = await import(path.join(dir, 'tinyusdz.js'));
const native = await init({ wasmBinary: await readFile(path.join(dir, 'tinyusdz.wasm')) });

// prims reads `def Type "name"` blocks from a usda text, tracking nesting
// by braces, and each Skeleton's `joints` count.
function prims(text) {
  const out = [];
  const stack = [];
  let pending = null;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    const def = line.match(/^def\s+(\w+)?\s*"([^"]+)"/);
    if (def) {
      pending = { type: def[1] ?? '', name: def[2] };
      continue;
    }
    if (line === '{') {
      if (pending) {
        const p = '/' + [...stack.filter(Boolean).map((s) => s.name), pending.name].join('/');
        const prim = { path: p, type: pending.type, name: pending.name };
        out.push(prim);
        stack.push(prim);
        pending = null;
      } else {
        stack.push(null);
      }
      continue;
    }
    // A dictionary or time samples opening at the end of a line (or a
    // metadata block's parenthesis) closes on a line of its own.
    if (line.endsWith('{') || line.endsWith('(')) {
      stack.push(null);
      continue;
    }
    if (line === '}' || line === ')') {
      stack.pop();
      continue;
    }
    const top = stack[stack.length - 1];
    const joints = line.match(/^uniform token\[\] joints = \[(.*)\]$/);
    if (top && joints) top.joints = (joints[1].match(/"(?:[^"\\]|\\.)*"/g) ?? []).length;
  }
  return out.map(({ path, type, joints }) => (joints === undefined ? { path, type } : { path, type, joints }));
}

let failed = false;
let args = process.argv.slice(2);
const withLayer = args[0] === '--layer';
if (withLayer) args = args.slice(1);
for (const file of args) {
  const data = new Uint8Array(await readFile(file));
  const report = { file };
  const scene = new native.TinyUSDZLoaderNative();
  scene.setLoadTextureInNative(true);
  scene.setBaseWorkingPath(path.dirname(path.resolve(file)));
  if (!scene.loadFromBinary(data, file)) {
    report.error = scene.error();
    failed = true;
  } else {
    report.meshes = [];
    for (let k = 0; k < scene.numMeshes(); k++) {
      const m = scene.getMesh(k);
      report.meshes.push({
        path: m.absPath,
        points: m.points.length / 3,
        faces: m.faceVertexCounts.length,
        texcoords: m.texcoords ? m.texcoords.length / 2 : 0,
        materialId: m.materialId,
      });
    }
    report.materials = [];
    for (let k = 0; ; k++) {
      const m = scene.getMaterial(k);
      if (!m || m.diffuseColor === undefined) break;
      const t = m.diffuseColorTextureId === undefined ? undefined : scene.getTexture(m.diffuseColorTextureId);
      report.materials.push({ texture: t ? t.textureImageId : -1 });
    }
    report.images = [];
    for (let k = 0; ; k++) {
      const im = scene.getImage(k);
      if (!im || im.uri === undefined) break;
      report.images.push({ uri: im.uri, width: im.width, height: im.height, decoded: im.decoded });
    }
    const layer = new native.TinyUSDZLoaderNative();
    if (!layer.loadAsLayerFromBinary(data, file)) {
      report.error = layer.error();
      failed = true;
    } else {
      const text = layer.layerToString();
      report.prims = prims(text);
      if (withLayer) report.layer = text;
    }
  }
  console.log(JSON.stringify(report));
}
// exitCode, not exit(): exit() may cut off what stdout has not yet written to a pipe.
process.exitCode = failed ? 1 : 0;
