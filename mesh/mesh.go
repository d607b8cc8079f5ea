package mesh

import (
	"errors"
	"fmt"

	"github.com/meshrig/meshrig/linalg"
)

// Mesh is a triangle mesh with the polygons it was read from.
type Mesh struct {
	// Verts are the vertex positions.
	Verts []linalg.Vec3
	// Tris are the triangles, counter-clockwise seen from outside, as
	// indices into Verts.
	Tris [][3]int
	// Polys are the polygons as read, flattened: polygon k has the vertices
	// PolyVerts[PolyStart[k]:PolyStart[k+1]]. Both are nil when every
	// polygon is a triangle (then polygon k is Tris[k]).
	PolyStart []int
	PolyVerts []int
	// TriPoly maps each triangle to its polygon; nil when Polys are nil.
	TriPoly []int
	// Surface holds the file's UVs, normals, colours, materials and parts,
	// kept from input to output; nil when the file had none. Methods
	// ignore it; a frame shares the rest mesh's (WithVerts).
	Surface *Surface
}

// ErrDegenerate reports a face that uses one vertex twice.
var ErrDegenerate = errors.New("degenerate face")

// New builds a mesh from polygons of three or more vertices, splitting each
// into a triangle fan. Polygons of only triangles leave Polys nil.
func New(verts []linalg.Vec3, polys [][]int) (*Mesh, error) {
	m := &Mesh{Verts: verts}
	allTris := true
	for _, p := range polys {
		if len(p) != 3 {
			allTris = false
			break
		}
	}
	if !allTris {
		m.PolyStart = make([]int, 1, len(polys)+1)
	}
	for k, p := range polys {
		if len(p) < 3 {
			return nil, fmt.Errorf("face %d has %d vertices, need at least 3", k+1, len(p))
		}
		for i := 1; i+1 < len(p); i++ {
			m.Tris = append(m.Tris, [3]int{p[0], p[i], p[i+1]})
			if !allTris {
				m.TriPoly = append(m.TriPoly, k)
			}
		}
		if !allTris {
			m.PolyVerts = append(m.PolyVerts, p...)
			m.PolyStart = append(m.PolyStart, len(m.PolyVerts))
		}
	}
	if err := m.Validate(); err != nil {
		return nil, err
	}
	return m, nil
}

// NumPolys returns the number of polygons as read.
func (m *Mesh) NumPolys() int {
	if m.PolyStart == nil {
		return len(m.Tris)
	}
	return len(m.PolyStart) - 1
}

// Poly returns the vertices of polygon k. The slice must not be modified.
func (m *Mesh) Poly(k int) []int {
	if m.PolyStart == nil {
		return m.Tris[k][:]
	}
	return m.PolyVerts[m.PolyStart[k]:m.PolyStart[k+1]]
}

// Validate checks that every index is in range, no face repeats a vertex
// and every position is finite. Errors name the face or vertex (1-based).
func (m *Mesh) Validate() error {
	n := len(m.Verts)
	for i, v := range m.Verts {
		if !v.IsFinite() {
			return fmt.Errorf("vertex %d has a non-finite coordinate %v", i+1, v)
		}
	}
	for k := 0; k < m.NumPolys(); k++ {
		p := m.Poly(k)
		// The first problem along the face: a repeat before the first
		// index out of range, or that index.
		r := len(p)
		for a, i := range p {
			if i < 0 || i >= n {
				r = a
				break
			}
		}
		if a := FirstRepeat(p[:r]); a >= 0 {
			return fmt.Errorf("face %d uses vertex %d twice: %w", k+1, p[a]+1, ErrDegenerate)
		}
		if r < len(p) {
			return fmt.Errorf("face %d: vertex index %d out of range (mesh has %d vertices)", k+1, p[r]+1, n)
		}
	}
	if m.Surface != nil {
		if err := m.Surface.Validate(n, len(m.Tris)); err != nil {
			return fmt.Errorf("surface: %w", err)
		}
	}
	return nil
}

// Clone returns a deep copy of m; the copy shares nothing with m.
func (m *Mesh) Clone() *Mesh {
	c := &Mesh{
		Verts: append([]linalg.Vec3(nil), m.Verts...),
		Tris:  append([][3]int(nil), m.Tris...),
	}
	if m.PolyStart != nil {
		c.PolyStart = append([]int(nil), m.PolyStart...)
		c.PolyVerts = append([]int(nil), m.PolyVerts...)
		c.TriPoly = append([]int(nil), m.TriPoly...)
	}
	if m.Surface != nil {
		c.Surface = m.Surface.Clone()
	}
	return c
}

// WithVerts returns a mesh sharing m's faces with other positions, as for
// one frame of an animation. verts must have len(m.Verts) entries.
func (m *Mesh) WithVerts(verts []linalg.Vec3) *Mesh {
	c := *m
	c.Verts = verts
	return &c
}
