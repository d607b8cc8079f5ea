// Save as .glb or .dae (COLLADA 1.4.1 or 1.5 with kinematics) through the
// server's atomic writer (POST /api/save).
import { api } from './api.js';

const $ = (id) => document.getElementById(id);

export class Saver {
  constructor(app) {
    this.app = app;
  }

  /** save writes the rig to path; collada is "", "1.4.1" or "1.5". Resolves with the absolute path. */
  save(path, collada = '') {
    return this.app.run(async () => {
      const res = await api.save(path, collada);
      await this.app.applyState(await api.state());
      this.app.toast(`saved ${res.path}`);
      $('save-result').textContent = `saved ${res.path}`;
      return res.path;
    });
  }

  /** suggest fills the path box from the rig's name and the chosen format. */
  suggest() {
    const ext = $('save-format').value === 'glb' ? '.glb' : '.dae';
    let p = $('save-path').value.trim();
    if (!p) p = `${(this.app.state.name || 'rig').replace(/\.[^.]*$/, '')}-edited${ext}`;
    $('save-path').value = p.replace(/\.(glb|gltf|dae)$/i, '') + ext;
  }

  fromForm() {
    const fmt = $('save-format').value;
    return this.save($('save-path').value.trim(), fmt === 'glb' ? '' : fmt).catch(() => {});
  }

  bind() {
    $('save-format').addEventListener('change', () => this.suggest());
    $('save-form').addEventListener('submit', (e) => {
      e.preventDefault();
      this.fromForm();
    });
  }
}
