// Playback: a clip (or the rest pose), play/pause, a frame scrubber and a
// speed; the AnimationMixer poses the bones, the GPU skins the mesh.
import { api } from './api.js';

export class Timeline {
  constructor(view, el) {
    this.view = view;
    this.el = el; // {clip, play, scrub, frame, speed}
    this.model = null;
    this.clips = []; // State.clips
    this.clip = null; // -1: the rest pose; null: not chosen yet (the first clip is)
    this.frame = 0;
    this.time = 0;
    this.playing = false;
    this.speed = 1;
    this.onFrame = []; // functions (clip, frame) called when the shown frame changes
    this.frameTimes = []; // ms between drawn frames while playing
    el.clip.addEventListener('change', () => this.setClip(Number(el.clip.value)));
    el.play.addEventListener('click', () => this.toggle());
    el.scrub.addEventListener('input', () => this.seek(Number(el.scrub.value)));
    el.speed.addEventListener('change', () => { this.speed = Number(el.speed.value); });
    view.onTick.push((dt) => this.tick(dt));
    let last = 0;
    view.onDrawn.push((now) => {
      if (this.playing && last) {
        this.frameTimes.push(now - last);
        if (this.frameTimes.length > 2000) {
          this.frameTimes.shift();
          if (this.runStart > 0) this.runStart--;
        }
      }
      last = this.playing ? now : 0;
    });
    view.animating = () => this.playing;
  }

  /** setModel takes a freshly loaded model and the server's clip list, keeping the clip and frame. */
  setModel(model, clips) {
    this.model = model;
    this.clips = clips;
    const sel = this.el.clip;
    sel.replaceChildren(new Option('rest pose', '-1'));
    clips.forEach((c, i) => sel.append(new Option(`${c.name || 'clip ' + i} (${c.frames} frames)`, String(i))));
    const n = Math.min(clips.length, model.actions.length);
    let clip = this.clip === null ? (n > 0 ? 0 : -1) : this.clip;
    if (clip >= n) clip = -1;
    this.setClip(clip, Math.min(this.frame, clip >= 0 ? clips[clip].frames - 1 : 0));
  }

  setClip(c, frame = 0) {
    this.clip = c;
    this.el.clip.value = String(c);
    const frames = c >= 0 ? this.clips[c].frames : 1;
    this.el.scrub.max = String(Math.max(frames - 1, 0));
    this.el.scrub.disabled = c < 0;
    this.el.play.disabled = c < 0;
    if (c < 0) this.pause();
    this.seek(frame);
  }

  fps() {
    return this.clip >= 0 ? this.clips[this.clip].fps || 30 : 30;
  }

  /** seek shows frame f of the current clip (paused or not). */
  seek(f) {
    const frames = this.clip >= 0 ? this.clips[this.clip].frames : 1;
    f = Math.max(0, Math.min(frames - 1, Math.round(f)));
    this.time = f / this.fps();
    this.reapply();
    this.showFrame(f);
    this.view.invalidate();
  }

  showFrame(f) {
    const changed = f !== this.frame;
    this.frame = f;
    this.el.scrub.value = String(f);
    this.el.frame.textContent = this.clip >= 0 ? `${f + 1} / ${this.clips[this.clip].frames}` : 'rest';
    if (changed || this.forceNotify) {
      this.forceNotify = false;
      for (const fn of this.onFrame) fn(this.clip, f);
    }
  }

  /** notify calls the frame listeners even if the frame did not change (after a reload). */
  notify() {
    for (const fn of this.onFrame) fn(this.clip, this.frame);
  }

  /**
   * reapply poses the bones from scratch at this.time: the mixer writes a
   * bone only when its value differs from the one it wrote last, so a bone
   * turned by hand (the pose tool) would otherwise keep its turn.
   */
  reapply() {
    const m = this.model;
    m.mixer.stopAllAction();
    m.restPose();
    if (this.clip >= 0) {
      m.actions[this.clip].play();
      this.pose();
    }
  }

  /** pose sets the bones at this.time; the repeating action wraps at its end, so stop just short of it. */
  pose() {
    const span = Math.max(this.clips[this.clip].frames - 1, 1) / this.fps();
    this.model.mixer.setTime(Math.min(this.time, span * (1 - 1e-6)));
  }

  tick(dt) {
    if (!this.playing || this.clip < 0) return;
    const frames = this.clips[this.clip].frames;
    const span = Math.max(frames - 1, 1) / this.fps();
    this.time = (this.time + dt * this.speed) % span;
    this.pose();
    this.showFrame(Math.min(frames - 1, Math.round(this.time * this.fps())));
  }

  /** reportRun sends the mean frame time of the playback just ended (10 frames or more) to the server. */
  reportRun() {
    const run = this.frameTimes.slice(this.runStart ?? 0);
    if (run.length >= 10) api.log('frame-time', Math.round((run.reduce((a, b) => a + b, 0) / run.length) * 100) / 100);
  }

  play() {
    if (this.clip < 0 || this.playing) return;
    this.runStart = this.frameTimes.length;
    this.reapply(); // drop a hand-made pose
    this.playing = true;
    this.el.play.textContent = '❚❚ Pause';
    this.view.invalidate();
  }

  pause() {
    if (this.playing) this.reportRun();
    this.playing = false;
    this.el.play.textContent = '▶ Play';
  }

  toggle() {
    if (this.playing) this.pause();
    else this.play();
  }
}
