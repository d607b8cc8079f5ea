// The 3D view: renderer, camera, orbit controls, lights and the render loop.
// Frames are drawn on demand (a change, a drag, playback), not continuously.
import * as THREE from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';

/** glRenderer names the WebGL implementation ("" when there is none). */
function glRenderer() {
  const gl = document.createElement('canvas').getContext('webgl2');
  if (!gl) return '';
  const info = gl.getExtension('WEBGL_debug_renderer_info');
  const name = String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER));
  gl.getExtension('WEBGL_lose_context')?.loseContext();
  return name;
}

export class View {
  constructor(canvas) {
    this.canvas = canvas;
    // A software rasterizer (no GPU: SwiftShader, llvmpipe) spends ~40% of
    // a frame on multisampling; drop it there unless ?aa=1 asks for it.
    this.glName = glRenderer();
    this.software = /swiftshader|llvmpipe|softpipe|software/i.test(this.glName);
    const aa = new URLSearchParams(location.search).get('aa');
    this.antialias = aa === null ? !this.software : aa === '1';
    this.renderer = new THREE.WebGLRenderer({ canvas, antialias: this.antialias });
    this.renderer.setPixelRatio(this.software ? 1 : Math.min(window.devicePixelRatio, 2));
    this.scene = new THREE.Scene();
    this.scene.background = new THREE.Color(0x2b2f36);
    this.camera = new THREE.PerspectiveCamera(40, 1, 0.01, 100);
    this.controls = new OrbitControls(this.camera, canvas);
    this.controls.addEventListener('change', () => this.invalidate());
    this.scene.add(new THREE.HemisphereLight(0xffffff, 0x444455, 1.6));
    const sun = new THREE.DirectionalLight(0xffffff, 1.6);
    sun.position.set(1, 2, 1.5);
    this.camera.add(sun); // light follows the camera so every side is lit
    this.scene.add(this.camera);
    this.dirty = true;
    this.onTick = []; // functions (dtSeconds) run before each drawn frame
    this.onDrawn = []; // functions run after each drawn frame
    this.animating = () => false; // true while something moves every frame
    new ResizeObserver(() => this.resize()).observe(canvas.parentElement);
    this.resize();
  }

  /** invalidate asks for a redraw on the next animation frame. */
  invalidate() {
    this.dirty = true;
  }

  resize() {
    const el = this.canvas.parentElement;
    const w = Math.max(1, el.clientWidth);
    const h = Math.max(1, el.clientHeight);
    this.renderer.setSize(w, h, false);
    this.camera.aspect = w / h;
    this.camera.updateProjectionMatrix();
    this.invalidate();
  }

  /** frame points the camera at box (a THREE.Box3) from the front, a little above. */
  frame(box) {
    const c = box.getCenter(new THREE.Vector3());
    const r = Math.max(box.getSize(new THREE.Vector3()).length() / 2, 1e-6);
    // Fit the box's bounding sphere in the narrower field of view; the
    // sphere is looser than the body, so come a little closer.
    const v = THREE.MathUtils.degToRad(this.camera.fov);
    const h = 2 * Math.atan(Math.tan(v / 2) * this.camera.aspect);
    const dist = (0.9 * r) / Math.sin(Math.min(v, h) / 2);
    this.camera.near = dist / 100;
    this.camera.far = dist * 100;
    this.camera.position.copy(c).add(new THREE.Vector3(0.35, 0.3, 1).normalize().multiplyScalar(dist));
    this.camera.updateProjectionMatrix();
    this.controls.target.copy(c);
    this.controls.update();
    this.invalidate();
  }

  /** start runs the render loop. */
  start() {
    let last = performance.now();
    const loop = (now) => {
      const dt = Math.min((now - last) / 1000, 0.25);
      last = now;
      requestAnimationFrame(loop); // first, so an error below does not stop the loop
      if (this.dirty || this.animating()) {
        this.dirty = false;
        for (const f of this.onTick) f(dt, now);
        this.renderer.render(this.scene, this.camera);
        for (const f of [...this.onDrawn]) f(now);
      }
    };
    requestAnimationFrame(loop);
  }

  /** toScreen returns the client (page) coordinates of world point p. */
  toScreen(p) {
    const v = p.clone().project(this.camera);
    const r = this.canvas.getBoundingClientRect();
    return { x: r.left + ((v.x + 1) / 2) * r.width, y: r.top + ((1 - v.y) / 2) * r.height, visible: v.z < 1 };
  }

  /** ray returns a raycaster through the client point (x, y). */
  ray(x, y) {
    const r = this.canvas.getBoundingClientRect();
    const ndc = new THREE.Vector2(((x - r.left) / r.width) * 2 - 1, -((y - r.top) / r.height) * 2 + 1);
    const rc = new THREE.Raycaster();
    rc.setFromCamera(ndc, this.camera);
    return rc;
  }
}
