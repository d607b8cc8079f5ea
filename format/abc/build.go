package abc

import (
	"fmt"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/seq"
)

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
			part := frame[p.FirstVert : p.FirstVert+p.Verts]
			if err := ev[k].positions(a, c, t, part); err != nil {
				return err
			}
			// The sequence holds float32: a point the transforms above it
			// carry past its range is refused here, naming the object.
			for i, v := range part {
				if !v.Vec3f().IsFinite() {
					return c.mesh.Object.errf("at time %g: point %d at %v is beyond float32's range", t, i, v)
				}
			}
		}
		if f == 0 {
			rest, err := mesh.New(append([]linalg.Vec3(nil), frame...), polys)
			if err != nil {
				return picked[0].mesh.Object.errf("%w", err)
			}
			world := make([]linalg.Affine, len(ev))
			for k := range ev {
				world[k] = ev[k].world
			}
			rest.Surface = surface(rest, sc.Parts, world)
			if err := rest.Surface.Validate(len(rest.Verts), len(rest.Tris)); err != nil {
				return picked[0].mesh.Object.errf("UVs or normals: %w", err)
			}
			s = seq.New(rest)
			s.StartClip(name, fps)
			// The budget was checked: grow once rather than by doubling.
			s.Frames = make([]linalg.Vec3f, 0, len(sc.Times)*n)
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
	// world is the transform of the last positions written.
	world linalg.Affine
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
	e.world = world
	var p1 []linalg.Vec3
	if w > 0 {
		if p1, err = e.sample(a, m, i1); err != nil {
			return err
		}
	}
	// One pass: interpolate, then place (a translation alone, as Maya's
	// caches usually have, by an addition).
	shift := moved && world.M == linalg.Identity3()
	for k, v := range p0 {
		if p1 != nil {
			v = v.Add(p1[k].Sub(v).Scale(w))
		}
		switch {
		case shift:
			v = v.Add(world.T)
		case moved:
			v = world.Apply(v)
		}
		dst[k] = v
	}
	return nil
}
