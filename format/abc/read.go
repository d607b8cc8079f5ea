package abc

import (
	"context"
	"fmt"
	"io"
	"math"
	"strings"
	"unsafe"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/seq"
)

// Options controls Read.
type Options struct {
	// Object picks one mesh by path: a PolyMesh, or an object with exactly
	// one PolyMesh below it. "" reads every animated PolyMesh whose
	// topology stays the same as one mesh (every PolyMesh when none is
	// animated).
	Object string
	// FPS resamples the animation at this rate (finer where needed so the
	// last sample is a frame), positions and transform channels
	// interpolated linearly. 0 keeps the samples when they are evenly
	// spaced, else resamples at the finest even rate among them, or 30.
	FPS float64
	// Frames keeps these frames (1-based) of the animation; the others
	// are not read.
	Frames format.FrameRange
	// Clip names the clip; "" names it "alembic".
	Clip string
	// MaxBytes bounds the memory the frames may take (positions and
	// labels); a file that would need more is refused before any frame is
	// read. 0 means 1.5 GiB, as the other scene readers allow.
	MaxBytes float64
	// Context, when not nil, stops reading when done.
	Context context.Context
}

// Part is one mesh of the result: its vertices are Sequence's vertices
// [FirstVert, FirstVert+Verts), its polygons the Rest mesh's polygons
// [FirstPoly, FirstPoly+Polys).
type Part struct {
	Path             string
	FirstVert, Verts int
	FirstPoly, Polys int
	// UV and Normals are the mesh's "uv" and "N" at the first frame read,
	// face-varying values in the Rest mesh's corner order; nil when absent.
	// Normals are in the object's own space.
	UV, Normals *Attribute
}

// Scene is what Read returns.
type Scene struct {
	// Sequence holds the picked meshes as one: rest pose = first frame
	// read, one clip at the frame rate.
	Sequence *seq.Sequence
	// Parts say which vertices and polygons came from which object.
	Parts []Part
	// Times are the frames' times in seconds.
	Times []float64
	// Objects lists every object of the file (the root excepted).
	Objects []format.ObjectInfo
}

// candidate is a PolyMesh with the Xforms above it, nearest first.
type candidate struct {
	mesh   *PolyMesh
	chain  []*Xform
	info   int // index in Scene.Objects
	driven []*Property
}

// Read reads an Alembic Ogawa file's meshes into a sequence: positions per
// sample with the Xform hierarchy above each mesh applied, polygons
// counter-clockwise (see PolyMesh.Polygons), frames at the file's sample
// times. A picked mesh whose topology changes is an error naming the
// sample.
func Read(r io.ReaderAt, size int64, opt Options) (*Scene, error) {
	a, err := Open(r, size)
	if err != nil {
		return nil, err
	}
	return a.Read(opt)
}

// Read is Read on an opened archive.
func (a *Archive) Read(opt Options) (*Scene, error) {
	if opt.Context == nil {
		opt.Context = context.Background()
	}
	if err := opt.Frames.Validate(); err != nil {
		return nil, err
	}
	if opt.FPS < 0 || math.IsNaN(opt.FPS) || math.IsInf(opt.FPS, 0) {
		return nil, fmt.Errorf("frame rate %v is not a positive number", opt.FPS)
	}
	sc := &Scene{}
	var all []*candidate
	xforms := map[*Object]*Xform{}
	var walkErr error
	a.Root.Walk(func(o *Object) {
		if walkErr != nil || o == a.Root {
			return
		}
		info := format.ObjectInfo{Path: o.Path, Type: o.Schema(), FirstVert: -1}
		switch {
		case IsXform(o):
			x, err := a.Xform(o)
			if err != nil {
				walkErr = err
				return
			}
			xforms[o] = x
			if x.vals != nil {
				info.Samples = x.vals.Samples
				a.span(&info, x.vals)
			}
		case IsPolyMesh(o):
			m, err := a.PolyMesh(o)
			if err != nil {
				walkErr = err
				return
			}
			info.Verts, info.Faces, info.Samples = m.Verts, len(m.Counts), m.Samples
			a.span(&info, m.p)
			c := &candidate{mesh: m, info: len(sc.Objects)}
			for p := o.Parent; p != nil; p = p.Parent {
				if x := xforms[p]; x != nil {
					c.chain = append(c.chain, x)
				}
			}
			all = append(all, c)
		default:
			info.Note = "not read: not a mesh or transform"
		}
		sc.Objects = append(sc.Objects, info)
	})
	if walkErr != nil {
		return nil, walkErr
	}
	picked, err := a.pick(all, sc.Objects, opt.Object)
	if err != nil {
		return sc, err
	}
	for _, c := range picked {
		if m := c.mesh; m.Samples > 1 && !m.p.Constant() {
			c.driven = append(c.driven, m.p)
		}
		for _, x := range c.chain {
			if x.Animated() {
				c.driven = append(c.driven, x.vals)
			}
			if x.inherits != nil && x.inherits.Samples > 1 && !x.inherits.Constant() {
				c.driven = append(c.driven, x.inherits)
			}
		}
	}
	g := a.frameTimes(picked, opt.FPS)
	if math.IsInf(g.fps, 0) || !(g.fps > 0) {
		return sc, a.Root.errf("the samples are too close together to make frames (%g fps)", g.fps)
	}
	lo, hi, err := opt.Frames.Span(g.n)
	if err != nil {
		return sc, err
	}
	verts, evals := 0, 0
	for _, c := range picked {
		verts += c.mesh.Verts
		evals += len(c.chain)
	}
	budget := opt.MaxBytes
	if budget == 0 {
		budget = 3 << 29
	}
	// A transform evaluated per frame is charged as 1 KiB, so that a deep
	// chain of Xforms over many frames is refused like a large mesh.
	perFrame := float64(verts)*float64(unsafe.Sizeof(linalg.Vec3{})) + float64(unsafe.Sizeof("")) + 24 + 1024*float64(evals)
	if need := float64(hi-lo) * perFrame; need > budget {
		return sc, fmt.Errorf("%d frames (at %.4g fps) of %d vertices need %.3g GiB, more than the %.3g GiB meshrig reads into: "+
			"keep some frames (--frames A:B), sample at a lower rate (--fps) or pick one mesh (--object)",
			hi-lo, g.fps, verts, need/(1<<30), budget/(1<<30))
	}
	sc.Times = make([]float64, hi-lo)
	for i := range sc.Times {
		sc.Times[i] = g.at(lo + i)
	}
	return sc, a.build(sc, picked, g.fps, opt)
}

// grid is the frames' times: n frames at rate fps, frame i at at(i).
type grid struct {
	n   int
	fps float64
	at  func(i int) float64
}

// span sets an object's sample times from the property that drives it.
func (a *Archive) span(info *format.ObjectInfo, p *Property) {
	ts := a.Samplings[p.Sampling]
	info.Start, info.End = ts.Time(0), ts.Time(max(p.Samples-1, 0))
	if s := ts.Step(p.Samples); s > 0 {
		info.FPS = 1 / s
	}
}

// animated reports whether a mesh's positions or the transforms above it
// change over time.
func (c *candidate) animated() bool {
	if c.mesh.Samples > 1 && !c.mesh.p.Constant() {
		return true
	}
	for _, x := range c.chain {
		if x.Animated() {
			return true
		}
	}
	return false
}

// pick chooses the meshes to read: the one object asks for, or every
// animated mesh of constant topology (every mesh when none is animated).
func (a *Archive) pick(all []*candidate, infos []format.ObjectInfo, object string) ([]*candidate, error) {
	var paths []string
	for _, c := range all {
		paths = append(paths, c.mesh.Object.Path)
	}
	if len(all) == 0 {
		return nil, a.Root.errf("%w: the file has no PolyMesh objects", format.ErrNoFrames)
	}
	if object != "" {
		var under []*candidate
		for _, c := range all {
			p := c.mesh.Object.Path
			if p == object || strings.HasPrefix(p, strings.TrimSuffix(object, "/")+"/") {
				under = append(under, c)
			}
		}
		switch {
		case len(under) == 0 && a.Find(object) == nil:
			return nil, fmt.Errorf("--object %s: no such object; the meshes are %s", object, strings.Join(paths, ", "))
		case len(under) == 0:
			return nil, fmt.Errorf("--object %s: no PolyMesh at or below it; the meshes are %s", object, strings.Join(paths, ", "))
		case len(under) > 1:
			var ps []string
			for _, c := range under {
				ps = append(ps, c.mesh.Object.Path)
			}
			return nil, fmt.Errorf("--object %s: %d meshes below it (%s); pick one", object, len(under), strings.Join(ps, ", "))
		}
		c := under[0]
		if i, what, err := a.Topology(c.mesh); err != nil {
			return nil, err
		} else if i >= 0 {
			return nil, c.mesh.Object.errf("the topology changes at sample %d (time %.6g s): %s", i, a.Samplings[c.mesh.Sampling].Time(i), what)
		}
		return under, nil
	}
	var moving []*candidate
	for _, c := range all {
		if c.animated() {
			moving = append(moving, c)
		}
	}
	if len(moving) == 0 {
		moving = all
	}
	var out []*candidate
	for _, c := range moving {
		i, what, err := a.Topology(c.mesh)
		if err != nil {
			return nil, err
		}
		if i >= 0 {
			infos[c.info].Note = fmt.Sprintf("not read: the topology changes at sample %d (%s); pick it with --object to see the error", i, what)
			continue
		}
		out = append(out, c)
	}
	if len(out) == 0 {
		return nil, a.Root.errf("%w: every mesh changes topology over time (%s)", format.ErrNoFrames, strings.Join(paths, ", "))
	}
	for _, c := range all {
		if infos[c.info].Note == "" && !contains(out, c) {
			infos[c.info].Note = "not read: not animated"
		}
	}
	return out, nil
}

func contains(cs []*candidate, c *candidate) bool {
	for _, d := range cs {
		if d == c {
			return true
		}
	}
	return false
}

// frameTimes returns the frames' times and rate: the driving samples
// themselves when one evenly spaced sampling drives everything and no
// rate is asked for, else an even grid over their span.
func (a *Archive) frameTimes(picked []*candidate, fps float64) grid {
	type key struct{ sampling, n int }
	seen := map[key]bool{}
	var keys []key
	for _, c := range picked {
		for _, p := range c.driven {
			k := key{p.Sampling, p.Samples}
			if !seen[k] {
				seen[k] = true
				keys = append(keys, k)
			}
		}
	}
	if fps == 0 && len(keys) == 1 {
		ts := a.Samplings[keys[0].sampling]
		if step := ts.Step(keys[0].n); step > 0 {
			return grid{n: keys[0].n, fps: 1 / step, at: ts.Time}
		}
	}
	if len(keys) == 0 {
		if fps == 0 {
			fps = 30
		}
		t0 := a.Samplings[picked[0].mesh.Sampling].Time(0)
		return grid{n: 1, fps: fps, at: func(int) float64 { return t0 }}
	}
	start, end := math.Inf(1), math.Inf(-1)
	finest := 0.0
	for _, k := range keys {
		ts := a.Samplings[k.sampling]
		start = min(start, ts.Time(0))
		end = max(end, ts.Time(k.n-1))
		if s := ts.Step(k.n); s > 0 {
			finest = max(finest, 1/s)
		}
	}
	if fps == 0 {
		fps = finest
	}
	if fps == 0 {
		fps = 30
	}
	span := end - start
	frames := math.Ceil(span*fps - 1e-6)
	if !(span > 0) || !(frames >= 1) {
		return grid{n: 1, fps: fps, at: func(int) float64 { return start }}
	}
	// Past MaxInt32 frames the budget refuses it anyway.
	n := int(min(frames, math.MaxInt32))
	rate := float64(n) / span
	return grid{n: n + 1, fps: rate, at: func(i int) float64 {
		if i == n {
			return end
		}
		return start + float64(i)/rate
	}}
}

// build reads the picked meshes at sc.Times into sc.Sequence and sc.Parts.
func (a *Archive) build(sc *Scene, picked []*candidate, fps float64, opt Options) error {
	var polys [][]int
	n := 0
	for _, c := range picked {
		m := c.mesh
		p := Part{Path: m.Object.Path, FirstVert: n, Verts: m.Verts, FirstPoly: len(polys), Polys: len(m.Counts)}
		for _, q := range m.Polygons() {
			for j := range q {
				q[j] += n
			}
			polys = append(polys, q)
		}
		first := a.sampleAt(m.p, sc.Times[0])
		var err error
		if m.UV != nil {
			if p.UV, err = a.Attribute(m, m.UV, first); err != nil {
				return err
			}
		}
		if m.Normals != nil {
			if p.Normals, err = a.Attribute(m, m.Normals, first); err != nil {
				return err
			}
		}
		sc.Objects[c.info].FirstVert = n
		n += m.Verts
		sc.Parts = append(sc.Parts, p)
	}
	name := opt.Clip
	if name == "" {
		name = "alembic"
	}
	frame := make([]linalg.Vec3, n)
	ev := make([]evaluator, len(picked))
	var s *seq.Sequence
	for f, t := range sc.Times {
		if err := opt.Context.Err(); err != nil {
			return err
		}
		for k, c := range picked {
			p := sc.Parts[k]
			if err := ev[k].positions(a, c, t, frame[p.FirstVert:p.FirstVert+p.Verts]); err != nil {
				return err
			}
		}
		if f == 0 {
			rest, err := mesh.New(append([]linalg.Vec3(nil), frame...), polys)
			if err != nil {
				return picked[0].mesh.Object.errf("%w", err)
			}
			s = seq.New(rest)
			s.StartClip(name, fps)
			// The budget was checked: grow once rather than by doubling.
			s.Frames = make([]linalg.Vec3, 0, len(sc.Times)*n)
			s.FrameNames = make([]string, 0, len(sc.Times))
		}
		if err := s.AddFrame(frame, fmt.Sprintf("%s@%.4gs", name, t)); err != nil {
			return err
		}
	}
	sc.Sequence = s
	return nil
}

// sampleAt returns the sample of p nearest at or before time t.
func (a *Archive) sampleAt(p *Property, t float64) int {
	i0, i1, w := a.bracket(p, t)
	if w > 0.5 {
		return i1
	}
	return i0
}

// evaluator reads one mesh's positions at given times, keeping the last
// two P samples read so that stepping through time reads each once.
type evaluator struct {
	idx [2]int
	buf [2][]linalg.Vec3
	ok  [2]bool
}

// sample returns P's sample i, read or kept.
func (e *evaluator) sample(a *Archive, m *PolyMesh, i int) ([]linalg.Vec3, error) {
	for k := 0; k < 2; k++ {
		if e.ok[k] && e.idx[k] == i {
			return e.buf[k], nil
		}
	}
	// Replace the slot not holding i-1 (the one the next frame may need).
	k := 0
	if e.ok[0] && e.idx[0] == i-1 {
		k = 1
	}
	var err error
	e.buf[k], err = a.Positions(m, i, e.buf[k])
	e.ok[k], e.idx[k] = err == nil, i
	return e.buf[k], err
}

// positions writes the mesh's world positions at time t into dst.
func (e *evaluator) positions(a *Archive, c *candidate, t float64, dst []linalg.Vec3) error {
	m := c.mesh
	i0, i1, w := a.bracket(m.p, t)
	p0, err := e.sample(a, m, i0)
	if err != nil {
		return err
	}
	copy(dst, p0)
	if w > 0 {
		p1, err := e.sample(a, m, i1)
		if err != nil {
			return err
		}
		for k := range dst {
			dst[k] = dst[k].Add(p1[k].Sub(dst[k]).Scale(w))
		}
	}
	world := linalg.IdentityAffine()
	moved := false
	for _, x := range c.chain {
		l, inh, err := a.Local(x, t)
		if err != nil {
			return err
		}
		world = l.Mul(world)
		moved = true
		if !inh {
			break
		}
	}
	if moved {
		for k, v := range dst {
			dst[k] = world.Apply(v)
		}
	}
	return nil
}
