package abc

import (
	"context"
	"fmt"
	"io"
	"math"
	"unsafe"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/linalg"
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
	all, objects, err := a.survey()
	if err != nil {
		return nil, err
	}
	sc := &Scene{Objects: objects}
	picked, err := a.pick(all, sc.Objects, opt.Object)
	if err != nil {
		return nil, err
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
		return nil, a.Root.errf("the samples are too close together to make frames (%g fps)", g.fps)
	}
	lo, hi, err := opt.Frames.Span(g.n)
	if err != nil {
		return nil, err
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
	perFrame := float64(verts)*float64(unsafe.Sizeof(linalg.Vec3f{})) + float64(unsafe.Sizeof("")) + 24 + 1024*float64(evals)
	if need := float64(hi-lo) * perFrame; need > budget {
		return nil, fmt.Errorf("%d frames (at %.4g fps) of %d vertices need %.3g GiB, more than the %.3g GiB meshrig reads into: "+
			"keep some frames (--frames A:B), sample at a lower rate (--fps) or pick one mesh (--object)",
			hi-lo, g.fps, verts, need/(1<<30), budget/(1<<30))
	}
	sc.Times = make([]float64, hi-lo)
	for i := range sc.Times {
		sc.Times[i] = g.at(lo + i)
	}
	if err := a.build(sc, picked, g.fps, opt); err != nil {
		return nil, err
	}
	return sc, nil
}

// survey reads every object's header data: Xforms, PolyMesh topologies
// (each with the Xforms above it, nearest first) and the listing.
func (a *Archive) survey() ([]*candidate, []format.ObjectInfo, error) {
	var all []*candidate
	var objects []format.ObjectInfo
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
			c := &candidate{mesh: m, info: len(objects)}
			for p := o.Parent; p != nil; p = p.Parent {
				if x := xforms[p]; x != nil {
					c.chain = append(c.chain, x)
				}
			}
			all = append(all, c)
		default:
			info.Note = "not read: not a mesh or transform"
		}
		objects = append(objects, info)
	})
	return all, objects, walkErr
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
