// The rig as three.js holds it: the GLB that meshrig writes, parsed by
// GLTFLoader. meshrig writes one primitive per part of the mesh (an OBJ
// usemtl group, an Alembic object), so the mesh node becomes a Group of
// SkinnedMeshes sharing one skeleton and, as the writer shares one vertex
// array over the primitives, one set of vertex attributes. Linear blend
// skinning runs in the vertex shader; one AnimationMixer action per clip.
import * as THREE from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';

/**
 * loadModel parses a GLB ArrayBuffer into a Model. n is the rig's vertex
 * count and copies the State's copy → rig vertex map: glTF vertex n+k is rig
 * vertex copies[k] (a vertex split at a UV seam).
 */
export async function loadModel(buffer, n, copies = []) {
  const gltf = await new GLTFLoader().parseAsync(buffer, '');
  const meshes = [];
  gltf.scene.traverse((o) => {
    if (o.isSkinnedMesh) meshes.push(o);
  });
  if (!meshes.length) throw new Error('rig.glb holds no skinned mesh');
  const bones = meshes[0].skeleton.bones;
  const other = meshes.find((m) => m.skeleton.bones.length !== bones.length || m.skeleton.bones.some((b, j) => b !== bones[j]));
  if (other) throw new Error(`rig.glb's part "${other.name}" has a skeleton of its own`);
  return new Model(gltf, meshes, n, copies);
}

/**
 * A Layer is one vertex array the parts draw from (one in a file meshrig
 * wrote): its colour attribute, painted by the colour modes, and the rig
 * vertex of each of its vertices (-1: unknown).
 */
class Layer {
  constructor(g, n, copies) {
    this.position = g.attributes.position;
    this.count = this.position.count;
    this.skinIndex = g.attributes.skinIndex;
    this.skinWeight = g.attributes.skinWeight;
    this.own = g.attributes.color ?? null; // the file's COLOR_0, shown in material mode
    this.color = new THREE.BufferAttribute(new Float32Array(3 * this.count).fill(0.8), 3);
    this.rigVertex = new Int32Array(this.count);
    for (let w = 0; w < this.count; w++) {
      this.rigVertex[w] = w < n ? w : (copies[w - n] ?? -1);
    }
  }

  /** weightOf returns, per vertex of the layer, the total weight of joint j. */
  weightOf(j) {
    const si = this.skinIndex;
    const sw = this.skinWeight;
    const out = new Float32Array(this.count);
    for (let i = 0; i < this.count; i++) {
      for (let k = 0; k < 4; k++) {
        if (si.getComponent(i, k) === j) out[i] += sw.getComponent(i, k);
      }
    }
    return out;
  }

  /** dominant returns, per vertex of the layer, the joint with the largest weight. */
  dominant() {
    const si = this.skinIndex;
    const sw = this.skinWeight;
    const out = new Int32Array(this.count);
    for (let i = 0; i < this.count; i++) {
      let best = 0;
      for (let k = 1; k < 4; k++) {
        if (sw.getComponent(i, k) > sw.getComponent(i, best)) best = k;
      }
      out[i] = si.getComponent(i, best);
    }
    return out;
  }
}

export class Model {
  constructor(gltf, meshes, n, copies) {
    this.root = gltf.scene;
    this.meshes = meshes; // every part, in the file's primitive order
    // meshrig writes skin.joints = [0 … J-1]: bone j is joint j.
    this.bones = meshes[0].skeleton.bones;
    this.rest = this.bones.map((b) => ({ p: b.position.clone(), q: b.quaternion.clone() }));
    this.vertexCount = n; // the rig's vertices: what /api/error and /api/input give values for
    const json = gltf.parser.json;
    this.hasMaterials = (json.materials ?? []).length > 0;
    this.hasTexture = (json.textures ?? []).length > 0;
    this.material = new THREE.MeshStandardMaterial({
      vertexColors: true, roughness: 0.75, metalness: 0, side: THREE.DoubleSide,
      polygonOffset: true, polygonOffsetFactor: 1, polygonOffsetUnits: 1,
    });
    this.layers = [];
    this.parts = meshes.map((mesh) => {
      mesh.frustumCulled = false; // the bind-pose bounds do not hold once posed
      const g = mesh.geometry;
      let layer = this.layers.find((l) => l.position === g.attributes.position);
      if (!layer) {
        layer = new Layer(g, n, copies);
        this.layers.push(layer);
      }
      const own = mesh.material;
      own.polygonOffset = true; // the skeleton's lines stay in front
      own.polygonOffsetFactor = 1;
      own.polygonOffsetUnits = 1;
      return { mesh, layer, own };
    });
    this.look = '';
    this.setLook('colors');
    this.mixer = new THREE.AnimationMixer(this.root);
    this.clips = gltf.animations;
    this.actions = this.clips.map((c) => {
      const a = this.mixer.clipAction(c);
      a.setLoop(THREE.LoopRepeat, Infinity);
      return a;
    });
    // The bounds of the vertices the parts draw (all of one layer's, as
    // the parts share it).
    this.box = new THREE.Box3();
    for (const l of this.layers) this.box.union(new THREE.Box3().setFromBufferAttribute(l.position));
  }

  /**
   * setLook draws the parts with the page's vertex colours ("colors") or
   * with the rig's own materials, textures and vertex colours ("material").
   */
  setLook(look) {
    if (look === this.look) return;
    this.look = look;
    for (const p of this.parts) {
      const g = p.mesh.geometry;
      if (look === 'material') {
        if (p.layer.own) g.setAttribute('color', p.layer.own);
        else g.deleteAttribute('color');
        p.mesh.material = p.own;
      } else {
        g.setAttribute('color', p.layer.color);
        p.mesh.material = this.material;
      }
    }
  }

  /** setWireframe draws every part, in either look, as lines. */
  setWireframe(on) {
    this.material.wireframe = on;
    for (const p of this.parts) p.own.wireframe = on;
  }

  /** restPose puts every bone back at its rest transform. */
  restPose() {
    this.bones.forEach((b, j) => {
      b.position.copy(this.rest[j].p);
      b.quaternion.copy(this.rest[j].q);
    });
  }

  /** worldHead returns joint j's current world position. */
  worldHead(j, out = new THREE.Vector3()) {
    return this.bones[j].getWorldPosition(out);
  }

  /**
   * partPoints returns, for each part, the page coordinates of up to max of
   * its triangles' centres as skinned now (CPU skinning, as the shader
   * does), through the view's toScreen, each with t, the triangle's number
   * within its part, and corners, three points near each corner: where a
   * test looks for its pixels.
   */
  partPoints(toScreen, max = 200) {
    this.root.updateMatrixWorld(true);
    const a = new THREE.Vector3();
    const b = new THREE.Vector3();
    const c = new THREE.Vector3();
    return this.parts.map(({ mesh }) => {
      const idx = mesh.geometry.index;
      const tris = idx ? idx.count / 3 : 0;
      const step = Math.max(1, Math.floor(tris / max));
      const out = [];
      for (let t = 0; t < tris; t += step) {
        const v = [0, 1, 2].map((k) => mesh.localToWorld(mesh.getVertexPosition(idx.getX(3 * t + k), new THREE.Vector3())));
        // Near corner k: 0.8 of it, 0.1 of each other corner.
        const corners = v.map((p) => toScreen(a.copy(p).multiplyScalar(0.7).add(b.copy(v[0]).add(v[1]).add(v[2]).multiplyScalar(0.1))));
        out.push({ ...toScreen(c.copy(v[0]).add(v[1]).add(v[2]).divideScalar(3)), t, corners });
      }
      return out;
    });
  }

  dispose() {
    this.mixer.stopAllAction();
    this.root.traverse((o) => {
      if (o.geometry) o.geometry.dispose();
    });
    this.material.dispose();
    for (const p of this.parts) p.own.dispose();
    this.root.removeFromParent();
  }
}
