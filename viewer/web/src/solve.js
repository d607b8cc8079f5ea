// Re-solve on the server (POST /api/solve), with its progress polled from
// GET /api/solve; when it ends the app loads the new rig and report.
import { api } from './api.js';

const $ = (id) => document.getElementById(id);

export class Solver {
  constructor(app) {
    this.app = app;
    this.running = false;
  }

  /** solve starts a re-solve and resolves with the new State once it is done. */
  solve() {
    return this.app.run(async () => {
      this.show(true, 'starting', 0, 0);
      try {
        await api.solveStart();
        let s;
        for (;;) {
          await new Promise((r) => setTimeout(r, 250));
          s = await api.solveStatus();
          if (!s.running) break;
          this.show(true, s.stage, s.done, s.total);
        }
        if (s.error) throw new Error(`re-solve failed: ${s.error}`);
        await this.app.applyState(await api.state());
        const r = this.app.state.report;
        this.app.toast(r && r.rmse != null ? `re-solved: RMSE ${r.rmse.toFixed(3)}% of d` : 're-solved');
        return this.app.state;
      } finally {
        this.show(false);
      }
    });
  }

  show(on, stage = '', done = 0, total = 0) {
    this.running = on;
    $('solve').disabled = on;
    $('solve-cancel').hidden = !on;
    const bar = $('solve-progress');
    bar.hidden = !on;
    if (total > 0) {
      bar.max = total;
      bar.value = done;
    } else {
      bar.removeAttribute('value'); // indeterminate
    }
    $('solve-stage').textContent = on ? `${stage}${total > 0 ? ` ${done}/${total}` : ''}` : '';
  }

  bind() {
    $('solve').addEventListener('click', () => this.solve().catch(() => {}));
    // Not queued behind the solve (app.run): it is what ends it.
    $('solve-cancel').addEventListener('click', () => api.solveCancel().catch((e) => this.app.toast(e.message, true)));
  }
}
