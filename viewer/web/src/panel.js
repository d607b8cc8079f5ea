// The report beside the timeline: bones, RMSE% and Max% of d, and the
// per-frame RMSE% of the current clip as a small plot whose worst frame
// (and any other) is a click away.
import { heat } from './colors.js';

export class ReportPanel {
  constructor(el, onSeek) {
    this.el = el; // {bones, rmse, max, worst, plot}
    this.onSeek = onSeek; // (clip, frame)
    this.report = null;
    this.clip = -1;
    this.frame = 0;
    el.plot.addEventListener('click', (e) => {
      const series = this.series();
      if (!series) return;
      const r = el.plot.getBoundingClientRect();
      const f = Math.round(((e.clientX - r.left) / r.width) * (series.length - 1));
      this.onSeek(this.clip, Math.max(0, Math.min(series.length - 1, f)));
    });
    el.worst.addEventListener('click', () => {
      const r = this.report;
      if (r && Number.isInteger(r.worstClip)) this.onSeek(r.worstClip, r.worstFrame);
    });
  }

  series() {
    const r = this.report;
    return r && r.perFrame && this.clip >= 0 ? r.perFrame[this.clip] : null;
  }

  setReport(report, bones) {
    this.report = report;
    const pct = (x) => (x === null || x === undefined ? '—' : `${x.toFixed(3)}%`);
    this.el.bones.textContent = String(report?.bones ?? bones);
    this.el.rmse.textContent = pct(report?.rmse);
    this.el.max.textContent = pct(report?.max);
    const has = Boolean(report && report.perFrame && Number.isInteger(report.worstClip));
    this.el.worst.disabled = !has;
    this.el.worst.textContent = has ? `worst: clip ${report.worstClip + 1}, frame ${report.worstFrame + 1}` : 'worst frame: —';
    this.draw();
  }

  setFrame(clip, frame) {
    this.clip = clip;
    this.frame = frame;
    this.draw();
  }

  draw() {
    const c = this.el.plot;
    const ctx = c.getContext('2d');
    const w = c.width;
    const h = c.height;
    ctx.clearRect(0, 0, w, h);
    const s = this.series();
    if (!s || s.length === 0) {
      ctx.fillStyle = '#8a919c';
      ctx.font = '11px sans-serif';
      ctx.fillText(this.report && this.report.perFrame ? 'rest pose: no frames' : 'no input: no error to plot', 6, h / 2);
      return;
    }
    const top = Math.max(...s) * 1.1 || 1;
    const x = (f) => (s.length > 1 ? (f / (s.length - 1)) * (w - 8) + 4 : w / 2);
    const y = (v) => h - 4 - (v / top) * (h - 14);
    ctx.strokeStyle = '#59626e';
    ctx.beginPath();
    ctx.moveTo(0, h - 4);
    ctx.lineTo(w, h - 4);
    ctx.stroke();
    ctx.strokeStyle = '#7cc4ff';
    ctx.beginPath();
    s.forEach((v, f) => (f ? ctx.lineTo(x(f), y(v)) : ctx.moveTo(x(f), y(v))));
    ctx.stroke();
    // The current frame.
    ctx.strokeStyle = '#ffffff';
    ctx.beginPath();
    ctx.moveTo(x(this.frame), 0);
    ctx.lineTo(x(this.frame), h);
    ctx.stroke();
    // The worst frame of this clip.
    let worst = 0;
    s.forEach((v, f) => { if (v > s[worst]) worst = f; });
    const [r, g, b] = heat(1);
    ctx.fillStyle = `rgb(${255 * r},${255 * g},${255 * b})`;
    ctx.beginPath();
    ctx.arc(x(worst), y(s[worst]), 3.5, 0, 2 * Math.PI);
    ctx.fill();
    ctx.fillStyle = '#c8ced6';
    ctx.font = '10px sans-serif';
    ctx.textAlign = 'right';
    ctx.fillText(`worst ${s[worst].toFixed(3)}% at frame ${worst + 1}`, w - 4, 10);
    ctx.textAlign = 'left';
  }
}
