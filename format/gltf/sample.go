package gltf

import (
	"context"
	"fmt"
	"math"
	"sort"
	"unsafe"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/internal/par"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/seq"
)

// maxSampleBytes bounds what sampling one file may allocate: positions,
// frame labels and the file's own rig per frame (1.5 GiB).
const maxSampleBytes = 3 << 29

// maxCount saturates a clip's frame count where float64 stops counting
// exactly (or int stops, on 32 bits); any such clip is far past
// maxSampleBytes anyway.
const maxCount = min(1<<53, math.MaxInt)

// timing is how one clip is sampled: frame k plays at keys[k] (the clip's
// own evenly spaced key times) or else at t0 + k·(t1−t0)/(count−1), so
// the first and last frames fall on the clip's first and last keys. The
// clip has count frames at fps; frames lo to hi-1 are the ones kept.
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
		return tm.t1 // exactly, not t0 + span rounded
	}
	return tm.t0 + (tm.t1-tm.t0)*float64(k)/float64(tm.count-1)
}

// timing decides how c is sampled: when fps > 0, from its first to its
// last key time in evenly spaced frames at a rate of at least fps (see
// frameSpan); otherwise at the clip's own key times when they are evenly
// spaced, else likewise at 30 fps. It allocates nothing per frame, so a
// clip's length is known before its frames cost anything.
func (c *clip) timing(fps float64) timing {
	if fps <= 0 {
		if keys, step := evenKeys(c); keys != nil {
			return timing{keys: keys, fps: niceRate(1 / step), count: len(keys)}
		}
		fps = 30
	}
	n, rate := frameSpan(c.t0, c.t1, fps)
	return timing{t0: c.t0, t1: c.t1, fps: rate, count: n + 1}
}

// frameSpan divides [t0, t1] into n frame steps at a rate of at least fps:
// n = ⌈(t1−t0)·fps⌉, so the clip's last key is a frame and frames stay
// evenly spaced, at the rate n/(t1−t0), reported as fps itself when within
// a millionth of it. Key times are float32, so a span within their
// rounding of n frames (34.0000001) is n frames, not n+1; within it of 0
// frames, a still. n saturates at maxCount−1 (the rate then falls below
// fps).
func frameSpan(t0, t1, fps float64) (n int, rate float64) {
	span := t1 - t0
	x := span * fps
	if !(x > 0) {
		return 0, fps
	}
	if x >= maxCount-1 {
		n = maxCount - 1 // past plan's bound unless --frames picks a few
	} else {
		n = int(math.Ceil(x))
		// float32 keeps 24 bits: a key time t is off by up to 2⁻²⁴·t, a
		// span by twice that, in frames times fps; 1e-6 leaves a margin.
		tol := 1e-6 * max(1, fps*max(math.Abs(t0), math.Abs(t1)))
		if r := math.Round(x); math.Abs(x-r) <= tol {
			n = int(r)
		}
	}
	if n == 0 {
		return 0, fps
	}
	// Finite even when fps nears float64's maximum over a subnormal span:
	// seq refuses an infinite rate.
	rate = math.Min(float64(n)/span, math.MaxFloat64)
	if math.Abs(rate-fps) <= 1e-6*fps {
		rate = fps
	}
	return n, rate
}

// evenKeys returns a clip's distinct key times and their step when there
// are two or more, evenly spaced; else nil.
func evenKeys(c *clip) ([]float64, float64) {
	var keys []float64
	for _, ch := range c.channels {
		keys = append(keys, ch.times...)
	}
	sort.Float64s(keys)
	// Channels share key times up to float32 rounding, which is relative
	// to the time: a fixed tolerance would merge every key of a clip
	// sampled at 1 MHz.
	uniq := keys[:0]
	for _, t := range keys {
		if len(uniq) == 0 || t-uniq[len(uniq)-1] > 1e-6*max(math.Abs(t), math.Abs(uniq[len(uniq)-1])) {
			uniq = append(uniq, t)
		}
	}
	if len(uniq) < 2 {
		return nil, 0
	}
	step := (uniq[len(uniq)-1] - uniq[0]) / float64(len(uniq)-1)
	if step <= 0 {
		return nil, 0
	}
	for i := range uniq {
		if math.Abs(uniq[i]-(uniq[0]+float64(i)*step)) > 1e-3*step {
			return nil, 0
		}
	}
	return uniq, step
}

// plan decides every clip's frames (opt.FPS, opt.Frames) and refuses, before
// anything per frame is allocated, a sampling that would take more than
// maxSampleBytes for n vertices and a rig of joints joints (0: none).
func plan(clips []clip, opt format.SceneOptions, n, joints int) ([]timing, error) {
	tms := make([]timing, len(clips))
	frames, longest := 0.0, 0
	for ci := range clips {
		tm := clips[ci].timing(opt.FPS)
		lo, hi, err := opt.Frames.Span(tm.count)
		if err != nil {
			return nil, fmt.Errorf("animation %q: %w", clips[ci].name, err)
		}
		tm.lo, tm.hi = lo, hi
		tms[ci] = tm
		frames += float64(hi - lo)
		if hi-lo > tms[longest].hi-tms[longest].lo {
			longest = ci
		}
	}
	perFrame := float64(n)*float64(unsafe.Sizeof(linalg.Vec3f{})) +
		float64(joints)*float64(unsafe.Sizeof(linalg.Affine{})+unsafe.Sizeof(linalg.Quat{})+unsafe.Sizeof(linalg.Vec3{}))
	need := 0.0
	for ci := range clips {
		// A label ("name@1.234s": a string header and its bytes) and a flag.
		label := float64(unsafe.Sizeof("")) + float64(len(clips[ci].name)) + 16 + 1
		need += float64(tms[ci].hi-tms[ci].lo) * (perFrame + label)
	}
	if need <= maxSampleBytes {
		return tms, nil
	}
	what := fmt.Sprintf("animation %q", clips[0].name)
	if len(clips) > 1 {
		what = fmt.Sprintf("%d animations (the longest, %q, has %d)", len(clips), clips[longest].name, tms[longest].hi-tms[longest].lo)
	}
	rig := ""
	if joints > 0 {
		rig = fmt.Sprintf(", with the file's rig of %d joints,", joints)
	}
	return nil, fmt.Errorf("%s: %.0f frames (at %g fps) × %d vertices%s need %s, more than the %s meshrig samples into: "+
		"sample at a lower rate (--fps), keep one animation (--clip) or some frames (--frames A:B)",
		what, frames, tms[longest].fps, n, rig, bytesText(need), bytesText(maxSampleBytes))
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

// sample evaluates the planned frames of every clip into a sequence over
// the rest mesh. truth, when not nil, receives each clip's skinning
// matrices; exact reports whether they reproduce every frame. It stops
// with ctx's error when ctx is done.
func sample(ctx context.Context, ev *evaluator, rest *mesh.Mesh, clips []clip, tms []timing, truth *truth) (s *seq.Sequence, exact bool, err error) {
	n := len(rest.Verts)
	total := 0
	for _, tm := range tms {
		total += tm.hi - tm.lo
	}
	s = seq.New(rest)
	// Frames are evaluated in place, past the slice's length: AddFrames
	// then appends them onto themselves, checking them without a copy.
	s.Frames = make([]linalg.Vec3f, 0, total*n)
	s.FrameNames = make([]string, 0, total)
	for ci := range clips {
		c, tm := &clips[ci], &tms[ci]
		m := tm.hi - tm.lo
		s.StartClip(c.name, tm.fps)
		at := s.F()
		frames := s.Frames[at*n : (at+m)*n]
		nj := 0
		var mats []linalg.Affine
		var kept []bool
		if truth != nil {
			nj = len(truth.node)
			mats, kept = make([]linalg.Affine, m*nj), make([]bool, m)
		}
		par.For(m, 1, func(lo, hi int) {
			verts := make([]linalg.Vec3, n) // evaluated in float64, stored rounded
			for f := lo; f < hi && ctx.Err() == nil; f++ {
				global := ev.frame(c, tm.at(tm.lo+f), verts)
				if truth != nil {
					fm := mats[f*nj : (f+1)*nj]
					truth.frameMats(global, fm)
					kept[f] = truth.reproduces(fm, verts)
				}
				for i, v := range verts {
					frames[f*n+i] = v.Vec3f()
				}
			}
		})
		if err := ctx.Err(); err != nil {
			return nil, false, err
		}
		names := make([]string, m)
		for f := range names {
			names[f] = fmt.Sprintf("%s@%.4gs", c.name, tm.at(tm.lo+f))
			if truth != nil && !kept[f] {
				truth = nil
			}
		}
		if err := s.AddFrames(frames, names); err != nil {
			return nil, false, err
		}
		if truth != nil {
			truth.addClip(c.name, tm.fps, m, mats)
		}
	}
	return s, truth != nil, nil
}
