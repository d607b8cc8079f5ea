package weld

import (
	"math"

	"github.com/meshrig/meshrig/linalg"
)

// Tolerance is the distance, in unit-sphere units, within which two rest
// vertices count as one point; Tear is how far such copies may drift
// apart in a frame and still be one (RiggedSimple's pieces, weighted
// apart, tear by 0.033 as they bend).
const Tolerance, Tear = 1e-6, 0.05

// Result is a mesh animation with coincident vertices merged.
type Result struct {
	// Of maps each input vertex to its welded vertex.
	Of []int32
	// First maps each welded vertex to its first input vertex, whose
	// positions it takes.
	First []int32
	// Rest, Frames (F·N frame-major) and Tris are the welded mesh;
	// triangles that collapse are dropped.
	Rest, Frames []linalg.Vec3
	Tris         [][3]int
}

// Merged returns how many input vertices were welded to another one
// (zero when every input vertex is its own welded vertex).
func (w *Result) Merged() int { return len(w.Of) - len(w.Rest) }

// Weld merges the vertices that lie within tol of each other in the rest
// pose and within tear in every one of the f frames (frame-major, f·n
// positions); vertices that only meet at rest stay apart. A welded vertex
// moves as its first copy. Welded vertices are numbered in the order of
// their first copies, so an input with no coincident vertices comes back
// as it is (but for triangles with a repeated corner).
func Weld(rest, frames []linalg.Vec3, tris [][3]int, f int, tol, tear float64) Result {
	w := weld(rest, framePos(frames, len(rest)), tris, f, tol, tear, nil)
	w.gather(frames, len(rest), f)
	return w
}

// Seams is Weld restricted to vertices on the mesh's boundary (on an edge
// of one triangle): a mesh cut along seams has its copies there, while
// coincident vertices inside a closed surface (the cow's one pinch, two
// sheets touching at a point) are left apart, so a mesh with no cut comes
// back as it is.
func Seams(rest, frames []linalg.Vec3, tris [][3]int, f int, tol, tear float64) Result {
	w := weld(rest, framePos(frames, len(rest)), tris, f, tol, tear, boundary(len(rest), tris))
	w.gather(frames, len(rest), f)
	return w
}

// SeamsOf is Seams for frames read through pos (vertex i of frame k),
// and returns no Frames: for a caller that reads the welded vertices'
// positions through First rather than hold a copy of every frame.
func SeamsOf(rest []linalg.Vec3, pos func(k, i int) linalg.Vec3, tris [][3]int, f int, tol, tear float64) Result {
	return weld(rest, pos, tris, f, tol, tear, boundary(len(rest), tris))
}

// framePos reads frame-major positions of n vertices.
func framePos(frames []linalg.Vec3, n int) func(k, i int) linalg.Vec3 {
	return func(k, i int) linalg.Vec3 { return frames[k*n+i] }
}

// gather sets w.Frames: the f frames of the welded vertices, each its
// first copy's positions in frames (frame-major, n vertices).
func (w *Result) gather(frames []linalg.Vec3, n, f int) {
	nw := len(w.First)
	w.Frames = make([]linalg.Vec3, f*nw)
	for v, i := range w.First {
		for k := 0; k < f; k++ {
			w.Frames[k*nw+v] = frames[k*n+int(i)]
		}
	}
}

// boundary marks the vertices on an edge that one triangle alone uses.
func boundary(n int, tris [][3]int) []bool {
	uses := map[[2]int]int{}
	for _, t := range tris {
		for k := 0; k < 3; k++ {
			a, b := t[k], t[(k+1)%3]
			uses[[2]int{min(a, b), max(a, b)}]++
		}
	}
	on := make([]bool, n)
	for e, u := range uses {
		if u == 1 {
			on[e[0]], on[e[1]] = true, true
		}
	}
	return on
}

// weld is Weld for the vertices marked in only (every vertex when nil).
func weld(rest []linalg.Vec3, pos func(k, i int) linalg.Vec3, tris [][3]int, f int, tol, tear float64, only []bool) Result {
	n := len(rest)
	type cell [3]int64
	at := func(p linalg.Vec3) cell {
		return cell{int64(math.Floor(p[0] / tol)), int64(math.Floor(p[1] / tol)), int64(math.Floor(p[2] / tol))}
	}
	same := func(i, j int) bool {
		if rest[i].Dist(rest[j]) > tol {
			return false
		}
		for k := 0; k < f; k++ {
			if pos(k, i).Dist(pos(k, j)) > tear {
				return false
			}
		}
		return true
	}
	w := Result{Of: make([]int32, n)}
	// First copies by grid cell of side tol: a match is in one of the 27
	// cells around a vertex's own.
	grid := map[cell][]int{}
	match := func(i int, c cell) int32 {
		for dx := int64(-1); dx <= 1; dx++ {
			for dy := int64(-1); dy <= 1; dy++ {
				for dz := int64(-1); dz <= 1; dz++ {
					for _, j := range grid[cell{c[0] + dx, c[1] + dy, c[2] + dz}] {
						if same(i, j) {
							return w.Of[j]
						}
					}
				}
			}
		}
		return -1
	}
	for i, p := range rest {
		weldable := only == nil || only[i]
		c := at(p)
		w.Of[i] = -1
		if weldable {
			w.Of[i] = match(i, c)
		}
		if w.Of[i] < 0 {
			w.Of[i] = int32(len(w.First))
			w.First = append(w.First, int32(i))
			if weldable {
				grid[c] = append(grid[c], i)
			}
		}
	}
	nw := len(w.First)
	w.Rest = make([]linalg.Vec3, nw)
	for v, i := range w.First {
		w.Rest[v] = rest[i]
	}
	for _, t := range tris {
		a, b, c := int(w.Of[t[0]]), int(w.Of[t[1]]), int(w.Of[t[2]])
		if a != b && b != c && a != c {
			w.Tris = append(w.Tris, [3]int{a, b, c})
		}
	}
	return w
}

// Spread maps per-welded-vertex data, k values per vertex, back to the
// input: input vertex i takes its welded vertex's k values. It returns
// len(w.Of)·k values.
func Spread[T any](w *Result, per []T, k int) []T {
	out := make([]T, len(w.Of)*k)
	for i, v := range w.Of {
		copy(out[i*k:(i+1)*k], per[int(v)*k:int(v+1)*k])
	}
	return out
}
