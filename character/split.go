package character

import (
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/seq"
)

// Split cuts s's mesh into pieces, as files split along texture or normal
// seams are: triangle t goes to piece piece(t), and a vertex that
// triangles of several pieces share gets a copy per piece, moving with
// it. The first piece (in triangle order) to use a vertex keeps it, and
// the copies follow the original vertices, so welding the copies back
// gives s's own mesh. Polygons are dropped: the result is all triangles.
func Split(s *seq.Sequence, piece func(t int) int) *seq.Sequence {
	n := s.N()
	owner := make([]int, n) // the piece that keeps vertex i, -1 while unused
	for i := range owner {
		owner[i] = -1
	}
	type key struct{ v, piece int }
	copyOf := map[key]int{}
	from := make([]int, n) // output vertex → input vertex
	for i := range from {
		from[i] = i
	}
	tris := make([][3]int, len(s.Rest.Tris))
	for t, tr := range s.Rest.Tris {
		p := piece(t)
		for k, v := range tr {
			switch c, ok := copyOf[key{v, p}]; {
			case owner[v] < 0 || owner[v] == p:
				owner[v] = p
				tris[t][k] = v
			case ok:
				tris[t][k] = c
			default:
				copyOf[key{v, p}] = len(from)
				tris[t][k] = len(from)
				from = append(from, v)
			}
		}
	}
	rest := make([]linalg.Vec3, len(from))
	for i, v := range from {
		rest[i] = s.Rest.Verts[v]
	}
	out := &seq.Sequence{Rest: &mesh.Mesh{Verts: rest, Tris: tris},
		FrameNames: s.FrameNames, Clips: s.Clips}
	out.Frames = make([]linalg.Vec3f, 0, s.F()*len(from))
	for f := 0; f < s.F(); f++ {
		for _, v := range from {
			out.Frames = append(out.Frames, s.Frames[f*n+v])
		}
	}
	return out
}

// Soup splits s into a triangle soup, every triangle its own piece (as
// Fox.glb is stored).
func Soup(s *seq.Sequence) *seq.Sequence {
	return Split(s, func(t int) int { return t })
}
