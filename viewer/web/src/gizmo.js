// The one TransformControls gizmo: rotate a bone (posing, forward kinematics
// on the GPU-skinned mesh) or translate a proxy at a joint's rest head
// (moving the joint; the edit is sent when the drag ends).
import * as THREE from 'three';
import { TransformControls } from 'three/addons/controls/TransformControls.js';

export class Gizmo {
  constructor(view) {
    this.view = view;
    this.tc = new TransformControls(view.camera, view.canvas);
    this.tc.setSize(0.8);
    view.scene.add(this.tc.getHelper());
    this.proxy = new THREE.Object3D();
    view.scene.add(this.proxy);
    this.onChange = () => {}; // while dragging
    this.onMoved = null; // (position) when a translate drag ends
    this.tc.addEventListener('dragging-changed', (e) => { view.controls.enabled = !e.value; });
    this.tc.addEventListener('change', () => view.invalidate());
    this.tc.addEventListener('objectChange', () => this.onChange());
    this.tc.addEventListener('mouseUp', () => {
      if (this.tc.mode === 'translate' && this.onMoved) this.onMoved(this.proxy.position.clone());
    });
  }

  /** busy is true while the pointer is on or dragging a handle (a click there is not a pick). */
  busy() {
    return this.tc.dragging || (this.tc.object && this.tc.axis !== null);
  }

  rotate(bone) {
    this.tc.setMode('rotate');
    this.tc.setSpace('local');
    this.tc.attach(bone);
    this.view.invalidate();
  }

  translate(position, onMoved) {
    this.proxy.position.copy(position);
    this.proxy.updateMatrixWorld();
    this.onMoved = onMoved;
    this.tc.setMode('translate');
    this.tc.setSpace('world');
    this.tc.attach(this.proxy);
    this.view.invalidate();
  }

  detach() {
    this.tc.detach();
    this.onMoved = null;
    this.view.invalidate();
  }
}
