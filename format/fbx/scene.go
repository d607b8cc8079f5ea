package fbx

import (
	"context"
	"fmt"
	"io/fs"
	"math"
	"unsafe"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/internal/par"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/rig"
	"github.com/meshrig/meshrig/seq"
)

// maxSampleBytes bounds what sampling may allocate.
const maxSampleBytes = 1.5 * (1 << 30)

// maxFrames bounds one clip's frame count (9.7 hours at 30 fps), so a
// forged key time cannot make a small file sample for long.
const maxFrames = 1 << 20

// ReadScene reads the FBX file name (binary, or ASCII 7.x) from fsys.
//
// Scene.Mesh joins every mesh model's geometry in file order, its control
// points in file order (so vertex order is kept) placed in the bind pose:
// the mesh's BindPose matrix, else its first cluster's
// TransformLink·Transform, else its rest transform, times the geometric
// transform. Polygons are split into triangle fans as OBJ's are. Coordinates
// are in the file's units and axes (GlobalSettings' UpAxis and
// UnitScaleFactor are not applied).
//
// A file without animation gives no Scene.Sequence: its Mesh in the bind
// pose and its Rig (when skinned) without clips. Each AnimationStack that keys some model's Lcl Translation, Rotation or
// Scaling (or only opt.Clip) becomes a clip of Scene.Sequence, sampled from
// its first to its last key at opt.FPS or, with 0, at the file's frame
// rate (TimeMode; 30 fps when it has none) — unless its keys are evenly
// spaced off that rate's frames (a 24 fps clip in a 30 fps file), then at
// its keys — in n+1 evenly spaced frames with n
// = ⌈span·fps⌉ (the rate rises to n/span when the span is not a whole
// number of frames). Models evaluate the FBX SDK's transform chain
// (Transform.Local) with Euler rotation orders and InheritType; skinned
// vertices move by every influence of their clusters,
// Σ w·G_link(t)·Transform·v, with the clusters' link mode. So
// Scene.Sequence is the file's own playback, ground truth for eval.
//
// Scene.Rig is the file's skeleton, skin and motion when every mesh is
// skinned: joints are the clusters' links with their LimbNode/Limb/Null
// ancestors (a still "root" above a forest), heads from TransformLink (the
// ancestors' from the bind pose), each vertex's four largest weights
// renormalised, and per clip the joints' LBS transforms turned into
// rotations and translations (rig.ClipFromSkinMatrices). Joints that
// translate freely keep their translations (a free rig, as glTF's reader
// gives); joints that scale or vertices with more than four influences
// make the rig an approximation of Scene.Sequence.
//
// A file whose meshes have no skin but whose models include bones
// (LimbNode, Limb, Root, Skeleton; with their Null ancestors) gives
// Scene.Skeleton and Scene.SkeletonClips instead: the same joints, heads
// and per-clip motion, without weights.
//
// Errors: a malformed file is a *format.ParseError with the byte offset
// (line and column for ASCII); versions other than 7.x are
// format.ErrUnsupported; a
// truncated file wraps format.ErrTruncated. Sizes are checked against the
// file before anything is allocated, and sampling more than 1.5 GiB is
// refused before it starts.
func ReadScene(fsys fs.FS, name string, opt format.SceneOptions) (*format.Scene, error) {
	if opt.FPS < 0 || math.IsNaN(opt.FPS) || math.IsInf(opt.FPS, 0) {
		return nil, fmt.Errorf("sampling rate %v fps: want a positive number, or 0 for the file's own", opt.FPS)
	}
	if err := opt.Frames.Validate(); err != nil {
		return nil, err
	}
	data, err := readAll(fsys, name)
	if err != nil {
		return nil, err
	}
	s, err := load(data)
	if err != nil {
		return nil, err
	}
	sc, err := s.scene(opt)
	if err != nil {
		return nil, err
	}
	sc.Files = []string{name}
	return sc, nil
}

// timing is one clip's sampling: frames lo..hi-1 of count, frame k at
// first + k·span/(count−1) ticks.
type timing struct {
	first, span int64
	count       int
	fps         float64
	lo, hi      int
}

func (tm timing) at(k int) int64 {
	if tm.count <= 1 {
		return tm.first
	}
	return tm.first + int64(math.Round(float64(tm.span)*float64(k)/float64(tm.count-1)))
}

// timingOf samples a stack at fps or finer, ending on its last key.
func timingOf(a *anim, fps float64) timing {
	span := a.last - a.first
	sec := float64(span) / Ticks
	x := sec * fps
	n := 0
	if x > 0 {
		n = maxFrames - 1
		if x < maxFrames-1 {
			n = int(math.Ceil(x))
			if r := math.Round(x); math.Abs(x-r) <= 1e-6*max(1, x) {
				n = int(r)
			}
		}
	}
	tm := timing{first: a.first, span: span, count: n + 1, fps: fps}
	if n > 0 {
		tm.fps = float64(n) / sec
		if math.Abs(tm.fps-fps) <= 1e-6*fps {
			tm.fps = fps
		}
	}
	return tm
}

// scene samples the stacks into a Scene.
func (s *sceneData) scene(opt format.SceneOptions) (*format.Scene, error) {
	sc := &format.Scene{Mesh: s.rest}
	f, h := s.file, s.h
	pose, err := bindPose(f)
	if err != nil {
		return nil, err
	}
	restGlobal := h.globals(h.rest, nil)
	tr, err := newTruth(s, pose, restGlobal)
	if err != nil {
		return nil, err
	}
	stacks := s.stacks
	if opt.Clip != "" {
		var names []string
		var keep []*anim
		for _, a := range stacks {
			names = append(names, a.name)
			if a.name == opt.Clip {
				keep = append(keep, a)
			}
		}
		if len(keep) == 0 {
			return nil, fmt.Errorf("no animation stack named %q (the file has %q)", opt.Clip, names)
		}
		stacks = keep
	}
	fps := opt.FPS
	if fps == 0 {
		fps = f.Settings.FPS
	}
	if fps == 0 {
		fps = 30
	}
	n := len(s.rest.Verts)
	joints := 0
	if tr != nil {
		joints = tr.skel.Len()
	}
	tms := make([]timing, len(stacks))
	need := 0.0
	perFrame := float64(n)*float64(unsafe.Sizeof(linalg.Vec3f{})) +
		float64(joints)*float64(unsafe.Sizeof(linalg.Affine{})+unsafe.Sizeof(linalg.Quat{})+unsafe.Sizeof(linalg.Vec3{})) + 64
	names := map[string]bool{}
	for k, a := range stacks {
		if names[a.name] {
			return nil, fmt.Errorf("two animation stacks are named %q", a.name)
		}
		names[a.name] = true
		rate := fps
		if opt.FPS == 0 && a.step > 0 {
			// Evenly spaced keys off the file's frame grid (a 24 fps clip
			// in a 30 fps file) are sampled at their own rate.
			keys := Ticks / float64(a.step)
			if r := fps / keys; math.Abs(r-math.Round(r)) > 1e-6*r || math.Round(r) < 1 {
				rate = keys
			}
		}
		if span := float64(a.last-a.first) / Ticks * rate; span >= maxFrames-1 {
			return nil, errAt(a.offset, "animation stack %q spans %.4g s, %.4g frames at %g fps: more than the %d frames meshrig samples (its keys at ticks %d to %d)",
				a.name, float64(a.last-a.first)/Ticks, span, rate, maxFrames, a.first, a.last)
		}
		tms[k] = timingOf(a, rate)
		lo, hi, err := opt.Frames.Span(tms[k].count)
		if err != nil {
			return nil, fmt.Errorf("animation stack %q: %w", a.name, err)
		}
		tms[k].lo, tms[k].hi = lo, hi
		need += float64(hi-lo) * perFrame
	}
	if need > maxSampleBytes {
		return nil, fmt.Errorf("sampling %d animation stacks at %g fps × %d vertices needs %.3g GiB, more than the 1.5 GiB meshrig samples into: "+
			"sample at a lower rate (--fps), keep one animation (--clip) or some frames (--frames A:B)", len(stacks), fps, n, need/(1<<30))
	}
	ctx := opt.Context
	if ctx == nil {
		ctx = context.Background()
	}
	var clips []rig.Clip
	// A file without animation keeps Sequence nil: its mesh in the bind
	// pose and its rig without clips, as format.Scene says.
	if len(stacks) > 0 {
		sq := seq.New(s.rest)
		for k, a := range stacks {
			tm := tms[k]
			frames, mats, err := s.sample(ctx, a, tm, tr)
			if err != nil {
				return nil, err
			}
			sq.StartClip(a.name, tm.fps)
			labels := make([]string, tm.hi-tm.lo)
			for i := range labels {
				labels[i] = fmt.Sprintf("%s@%.4gs", a.name, float64(tm.at(tm.lo+i)-tm.first)/Ticks)
			}
			if err := sq.AddFrames(frames, labels); err != nil {
				return nil, err
			}
			if tr != nil {
				clips = append(clips, rig.ClipFromSampledSkinMatrices(&tr.skel, a.name, tm.fps, tm.hi-tm.lo, mats, scaleTol))
			}
		}
		sc.Sequence = sq
	}
	if tr != nil && tr.skin == nil {
		sk := tr.skel
		sc.Skeleton, sc.SkeletonClips = &sk, clips
	} else if tr != nil {
		r := &rig.Rig{Mesh: s.rest, Skeleton: tr.skel, Skin: tr.skin, Clips: clips}
		if err := r.Validate(); err == nil {
			sc.Rig = r
		}
	}
	return sc, nil
}

// sample evaluates frames tm.lo..tm.hi-1 of stack a: the posed vertices
// (every influence) and, with tr, every joint's LBS transform.
func (s *sceneData) sample(ctx context.Context, a *anim, tm timing, tr *truth) ([]linalg.Vec3f, []linalg.Affine, error) {
	n := len(s.rest.Verts)
	nf := tm.hi - tm.lo
	frames := make([]linalg.Vec3f, nf*n)
	var mats []linalg.Affine
	nj := 0
	if tr != nil {
		nj = tr.skel.Len()
		mats = make([]linalg.Affine, nf*nj)
	}
	maxPart := 0
	for _, p := range s.parts {
		maxPart = max(maxPart, len(p.geo.Verts))
	}
	var stop error
	par.For(nf, 8, func(lo, hi int) {
		x := make([]Transform, len(s.h.models))
		var g []linalg.Affine
		wsum := make([]float64, maxPart)
		out := make([]linalg.Vec3, n) // evaluated in float64, stored rounded
		for i := lo; i < hi; i++ {
			if i == lo && ctx.Err() != nil {
				return
			}
			a.at(s.h, tm.at(tm.lo+i), x)
			g = s.h.globals(x, g)
			clear(out)
			for _, p := range s.parts {
				p.deform(g, s.h, out, wsum)
			}
			for k, v := range out {
				frames[i*n+k] = v.Vec3f() // beyond float32: infinite, refused below
			}
			if tr != nil {
				tr.mats(g, mats[i*nj:(i+1)*nj])
			}
		}
	})
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	for i, v := range frames {
		if !v.IsFinite() {
			stop = fmt.Errorf("animation stack %q: frame %d, vertex %d is not finite", a.name, tm.lo+i/n+1, i%n+1)
			break
		}
	}
	return frames, mats, stop
}

// scaleTol is how far from a rotation (float32 keys composed down the
// hierarchy) a joint's matrix may be and still count as unscaled; past
// it the clip keeps scale tracks when they replay the file exactly.
const scaleTol = 1e-5
