// Plays USD files with three.js's USDLoader (npm three, an independent USDA /
// USDC / USDZ reader with UsdSkel: SkinnedMesh, Skeleton, SkelAnimation as
// AnimationClips) in Node, without a browser: images are not decoded, only
// noted.
// Usage: node .ci/play-usd.mjs FILE OUT.bin [K=FPS:FRAMES ...]
// Prints one JSON line: the meshes (vertices as three holds them, one per
// triangle corner, bones, materials, geometry attributes), the animation clips (name,
// duration, tracks), the materials' base colour maps and the image bytes
// handed to the image loader. Writes to OUT.bin, as little-endian float32
// x y z per vertex: the mesh at rest, then for each clip K given (its index
// among the loaded clips), frames
// 0…FRAMES-1 played at time frame/FPS seconds through AnimationMixer and
// skinned on the CPU (SkinnedMesh.getVertexPosition).
import { readFile, writeFile } from 'node:fs/promises';
import * as THREE from 'three';
import { USDLoader } from 'three/addons/loaders/USDLoader.js';

const [file, out, ...specs] = process.argv.slice(2);
const images = [];
const createObjectURL = URL.createObjectURL;
URL.createObjectURL = (blob) => {
  images.push(blob.size);
  return createObjectURL(blob);
};
THREE.ImageLoader.prototype.load = function (url, onLoad) {
  const image = { url, width: 1, height: 1 };
  if (onLoad) queueMicrotask(() => onLoad(image));
  return image;
};

const data = await readFile(file);
const group = new USDLoader().parse(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength), '');
group.updateMatrixWorld(true);
const meshes = [];
group.traverse((o) => {
  if (o.isMesh) meshes.push(o);
});
const report = {
  file,
  meshes: meshes.map((m) => ({
    name: m.name,
    skinned: !!m.isSkinnedMesh,
    vertices: m.geometry.attributes.position.count,
    bones: m.skeleton ? m.skeleton.bones.length : 0,
    map: [m.material].flat().some((mt) => mt && mt.map),
    materials: [m.material].flat().length,
    attributes: Object.keys(m.geometry.attributes).sort(),
  })),
  clips: (group.animations ?? []).map((a) => ({ name: a.name, duration: a.duration, tracks: a.tracks.length })),
  images,
};
console.log(JSON.stringify(report));

const skinned = meshes.find((m) => m.isSkinnedMesh);
if (out && skinned) {
  const n = skinned.geometry.attributes.position.count;
  const chunks = [];
  const v = new THREE.Vector3();
  const sample = () => {
    group.updateMatrixWorld(true);
    skinned.skeleton.update();
    const buf = new Float32Array(3 * n);
    for (let i = 0; i < n; i++) {
      skinned.getVertexPosition(i, v);
      v.applyMatrix4(skinned.matrixWorld);
      buf.set([v.x, v.y, v.z], 3 * i);
    }
    chunks.push(Buffer.from(buf.buffer));
  };
  const rest = skinned.geometry.attributes.position.array;
  chunks.push(Buffer.from(Float32Array.from(rest).buffer));
  const mixer = new THREE.AnimationMixer(group);
  for (const spec of specs) {
    const m = spec.match(/^([0-9]+)=([0-9.eE+-]+):([0-9]+)$/);
    const clip = m && group.animations[Number(m[1])];
    if (!clip) {
      console.error(`no clip for ${spec}`);
      process.exit(1);
    }
    mixer.stopAllAction();
    const action = mixer.clipAction(clip);
    // Played once and held, so the last frame (at the clip's duration)
    // is not wrapped back to the first.
    action.setLoop(THREE.LoopOnce);
    action.clampWhenFinished = true;
    action.play();
    for (let f = 0; f < Number(m[3]); f++) {
      mixer.setTime(f / Number(m[2]));
      sample();
    }
    action.stop();
  }
  await writeFile(out, Buffer.concat(chunks));
}
