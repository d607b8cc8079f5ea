// The rig as three.js holds it: the GLB that meshrig writes, parsed by
// GLTFLoader into a SkinnedMesh (linear blend skinning in the vertex shader),
// its bones in joint order and one AnimationMixer action per clip.
import * as THREE from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';

/** loadModel parses a GLB ArrayBuffer into a Model. */
export async function loadModel(buffer) {
  const gltf = await new GLTFLoader().parseAsync(buffer, '');
  let mesh = null;
  gltf.scene.traverse((o) => {
    if (o.isSkinnedMesh && !mesh) mesh = o;
  });
  if (!mesh) throw new Error('rig.glb holds no skinned mesh');
  return new Model(gltf, mesh);
}

export class Model {
  constructor(gltf, mesh) {
    this.root = gltf.scene;
    this.mesh = mesh;
    // meshrig writes skin.joints = [0 … J-1]: bone j is joint j.
    this.bones = mesh.skeleton.bones;
    this.rest = this.bones.map((b) => ({ p: b.position.clone(), q: b.quaternion.clone() }));
    mesh.frustumCulled = false; // the bind-pose bounds do not hold once posed
    const g = mesh.geometry;
    this.vertexCount = g.attributes.position.count;
    g.setAttribute('color', new THREE.BufferAttribute(new Float32Array(3 * this.vertexCount).fill(0.8), 3));
    this.material = new THREE.MeshStandardMaterial({
      vertexColors: true, roughness: 0.75, metalness: 0, side: THREE.DoubleSide,
      polygonOffset: true, polygonOffsetFactor: 1, polygonOffsetUnits: 1,
    });
    mesh.material = this.material;
    this.mixer = new THREE.AnimationMixer(this.root);
    this.clips = gltf.animations;
    this.actions = this.clips.map((c) => {
      const a = this.mixer.clipAction(c);
      a.setLoop(THREE.LoopRepeat, Infinity);
      return a;
    });
    g.computeBoundingBox();
    this.box = g.boundingBox.clone();
  }

  /** restPose puts every bone back at its rest transform. */
  restPose() {
    this.bones.forEach((b, j) => {
      b.position.copy(this.rest[j].p);
      b.quaternion.copy(this.rest[j].q);
    });
  }

  /** weightOf returns, per vertex, the total weight of joint j. */
  weightOf(j) {
    const si = this.mesh.geometry.attributes.skinIndex;
    const sw = this.mesh.geometry.attributes.skinWeight;
    const out = new Float32Array(this.vertexCount);
    for (let i = 0; i < this.vertexCount; i++) {
      for (let k = 0; k < 4; k++) {
        if (si.getComponent(i, k) === j) out[i] += sw.getComponent(i, k);
      }
    }
    return out;
  }

  /** dominant returns, per vertex, the joint with the largest weight. */
  dominant() {
    const si = this.mesh.geometry.attributes.skinIndex;
    const sw = this.mesh.geometry.attributes.skinWeight;
    const out = new Int32Array(this.vertexCount);
    for (let i = 0; i < this.vertexCount; i++) {
      let best = 0;
      for (let k = 1; k < 4; k++) {
        if (sw.getComponent(i, k) > sw.getComponent(i, best)) best = k;
      }
      out[i] = si.getComponent(i, best);
    }
    return out;
  }

  /** worldHead returns joint j's current world position. */
  worldHead(j, out = new THREE.Vector3()) {
    return this.bones[j].getWorldPosition(out);
  }

  dispose() {
    this.mixer.stopAllAction();
    this.root.traverse((o) => {
      if (o.geometry) o.geometry.dispose();
    });
    this.material.dispose();
    this.root.removeFromParent();
  }
}
