package collada

import (
	"fmt"
	"math"
	"sort"
	"unsafe"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/linalg"
)

// timing is how one clip is sampled: frame k at keys[k] (the clip's own
// evenly spaced key times), or else at t0 + k·(t1−t0)/(count−1), so the
// first and last frames fall on the clip's ends. The clip has count
// frames at fps; frames lo to hi−1 are the ones kept.
type timing struct {
	keys          []float64
	t0, t1, fps   float64
	count, lo, hi int
}

// at returns the time of frame k.
func (tm *timing) at(k int) float64 {
	switch {
	case tm.keys != nil:
		return tm.keys[k]
	case k == 0:
		return tm.t0
	case k == tm.count-1:
		return tm.t1
	}
	return tm.t0 + (tm.t1-tm.t0)*float64(k)/float64(tm.count-1)
}

// maxCount saturates a clip's frame count where float64 stops counting
// exactly (or int does); such a clip is far past any budget anyway.
const maxCount = min(1<<53, math.MaxInt)

// timing decides how the clip is sampled: with fps 0 at its own key
// times when they are evenly spaced from its start to its end (what
// meshrig writes: frame f at f/FPS), else at 30 fps; with fps > 0, in
// evenly spaced frames at a rate of at least fps that include both ends
// (frameSpan). It allocates nothing per frame.
func (c *clipDef) timing(fps float64) timing {
	if fps <= 0 {
		if keys, step := c.evenKeys(); keys != nil {
			return timing{keys: keys, fps: niceRate(1 / step), count: len(keys)}
		}
		fps = 30
	}
	n, rate := frameSpan(c.t0, c.t1, fps)
	return timing{t0: c.t0, t1: c.t1, fps: rate, count: n + 1}
}

// evenKeys returns the clip's distinct key times and their step when
// there are two or more, evenly spaced, from its start to its end; else
// nil. Times written as text are rounded, so keys within a millionth (of
// their size) are one, and steps may vary by a thousandth.
func (c *clipDef) evenKeys() ([]float64, float64) {
	tol := func(a, b float64) float64 { return 1e-6 * max(math.Abs(a), math.Abs(b), c.t1-c.t0) }
	var keys []float64
	for _, ch := range c.chans {
		for _, t := range ch.times {
			if t >= c.t0-tol(t, c.t0) && t <= c.t1+tol(t, c.t1) {
				keys = append(keys, t)
			}
		}
	}
	sort.Float64s(keys)
	uniq := keys[:0]
	for _, t := range keys {
		if len(uniq) == 0 || t-uniq[len(uniq)-1] > tol(t, uniq[len(uniq)-1]) {
			uniq = append(uniq, t)
		}
	}
	if len(uniq) < 2 || math.Abs(uniq[0]-c.t0) > tol(uniq[0], c.t0) || math.Abs(uniq[len(uniq)-1]-c.t1) > tol(uniq[len(uniq)-1], c.t1) {
		return nil, 0
	}
	step := (uniq[len(uniq)-1] - uniq[0]) / float64(len(uniq)-1)
	if !(step > 0) {
		return nil, 0
	}
	for i, t := range uniq {
		if math.Abs(t-(uniq[0]+float64(i)*step)) > 1e-3*step {
			return nil, 0
		}
	}
	return uniq, step
}

// niceRate rounds a rate measured from rounded key times to a thousandth
// of a frame per second when that is within its rounding (24, 29.97).
func niceRate(fps float64) float64 {
	if r := math.Round(fps*1000) / 1000; math.Abs(r-fps) <= 1e-5*fps {
		return r
	}
	return fps
}

// frameSpan divides [t0, t1] into n frame steps at a rate of at least
// fps: n = ⌈(t1−t0)·fps⌉, within the rounding of text times of a whole
// number, so the last frame is the clip's end and frames stay evenly
// spaced, at n/(t1−t0) frames per second (reported as fps when within a
// millionth of it). n saturates at maxCount−1.
func frameSpan(t0, t1, fps float64) (int, float64) {
	span := t1 - t0
	x := span * fps
	if !(x > 0) {
		return 0, fps
	}
	n := maxCount - 1
	if x < maxCount-1 {
		n = int(math.Ceil(x))
		tol := 1e-6 * max(1, fps*max(math.Abs(t0), math.Abs(t1)))
		if r := math.Round(x); math.Abs(x-r) <= tol {
			n = int(r)
		}
	}
	if n == 0 {
		return 0, fps
	}
	rate := math.Min(float64(n)/span, math.MaxFloat64)
	if math.Abs(rate-fps) <= 1e-6*fps {
		rate = fps
	}
	return n, rate
}

// plan decides every clip's frames (opt.FPS, opt.Frames) and refuses,
// before anything per frame is allocated, a sampling that would take more
// than budget bytes for n vertices and joints joints: positions, frame
// labels, the joints' matrices and the rig's clips.
func plan(clips []clipDef, opt format.SceneOptions, n, joints int, budget float64) ([]timing, error) {
	tms := make([]timing, len(clips))
	perFrame := float64(n)*float64(unsafe.Sizeof(linalg.Vec3f{})) +
		float64(joints)*float64(unsafe.Sizeof(linalg.Affine{})+unsafe.Sizeof(linalg.Quat{})+unsafe.Sizeof(linalg.Vec3{}))
	need, frames, longest := 0.0, 0, 0
	for k := range clips {
		tm := clips[k].timing(opt.FPS)
		lo, hi, err := opt.Frames.Span(tm.count)
		if err != nil {
			return nil, clips[k].el.errorf("clip %q: %w", clips[k].name, err)
		}
		tm.lo, tm.hi = lo, hi
		tms[k] = tm
		m := hi - lo
		frames += m
		if m > tms[longest].hi-tms[longest].lo {
			longest = k
		}
		label := float64(unsafe.Sizeof("")) + float64(len(clips[k].name)) + 16
		need += float64(m) * (perFrame + label)
	}
	if need <= budget {
		return tms, nil
	}
	what := fmt.Sprintf("clip %q", clips[0].name)
	if len(clips) > 1 {
		what = fmt.Sprintf("%s (the longest, %q, has %d)", plural(len(clips), "clip"), clips[longest].name, tms[longest].hi-tms[longest].lo)
	}
	return nil, clips[longest].el.errorf("%s: %d frames (at %g fps) × %s and %s need %s, more than the %s meshrig samples into: "+
		"sample at a lower rate (--fps), keep one clip (--clip) or some frames (--frames A:B)",
		what, frames, tms[longest].fps, plural(n, "vertex"), plural(joints, "joint"), bytesText(need), bytesText(budget))
}

// bytesText writes a byte count for people.
func bytesText(b float64) string {
	for _, u := range []struct {
		size float64
		unit string
	}{{1 << 40, "TiB"}, {1 << 30, "GiB"}, {1 << 20, "MiB"}, {1 << 10, "KiB"}} {
		if b >= u.size {
			return fmt.Sprintf("%.3g %s", b/u.size, u.unit)
		}
	}
	return fmt.Sprintf("%.0f bytes", b)
}
