package gltf

import (
	"fmt"

	gltflib "github.com/qmuntal/gltf"

	"github.com/meshrig/meshrig/linalg"
)

// trs is a node's local transform: translation, rotation, scale, or a
// fixed matrix (which animation cannot target).
type trs struct {
	t      linalg.Vec3
	r      linalg.Quat
	s      linalg.Vec3
	matrix *linalg.Affine
}

func (x trs) affine() linalg.Affine {
	if x.matrix != nil {
		return *x.matrix
	}
	return linalg.TRS(x.t, x.r, x.s)
}

// graph is the node hierarchy of the displayed scene.
type graph struct {
	parent []int // -1 for roots and for nodes outside the scene
	order  []int // the scene's nodes, parents before children
	rest   []trs
}

// newGraph validates the node hierarchy (indices, single parents, no
// cycles) and orders the nodes of the default scene (or of every root
// when the file names none).
func newGraph(doc *gltflib.Document) (*graph, error) {
	n := len(doc.Nodes)
	g := &graph{parent: make([]int, n), rest: make([]trs, n)}
	for i := range g.parent {
		g.parent[i] = -1
	}
	for i, nd := range doc.Nodes {
		if nd == nil {
			return nil, fmt.Errorf("node %d is null", i)
		}
		for _, c := range nd.Children {
			if c < 0 || c >= n {
				return nil, fmt.Errorf("node %d: child %d does not exist", i, c)
			}
			if g.parent[c] >= 0 || c == i {
				return nil, fmt.Errorf("node %d has more than one parent", c)
			}
			g.parent[c] = i
		}
		t, r, s := nd.TranslationOrDefault(), nd.RotationOrDefault(), nd.ScaleOrDefault()
		g.rest[i] = trs{t: linalg.Vec3(t), r: linalg.Quat{W: r[3], X: r[0], Y: r[1], Z: r[2]}, s: linalg.Vec3(s)}
		if m := nd.MatrixOrDefault(); m != gltflib.DefaultMatrix {
			a := linalg.AffineFromMat4(m)
			g.rest[i].matrix = &a
		}
	}
	// With one parent each, a node that descends from no parentless node
	// sits on or below a cycle.
	reached := 0
	var stack []int
	for i := 0; i < n; i++ {
		if g.parent[i] < 0 {
			stack = append(stack, i)
		}
	}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		reached++
		stack = append(stack, doc.Nodes[i].Children...)
	}
	if reached < n {
		return nil, fmt.Errorf("%d of the %d nodes are their own ancestors (a cycle)", n-reached, n)
	}
	var roots []int
	if len(doc.Scenes) > 0 {
		sc := 0
		if doc.Scene != nil {
			sc = *doc.Scene
		}
		if sc < 0 || sc >= len(doc.Scenes) || doc.Scenes[sc] == nil {
			return nil, fmt.Errorf("scene %d does not exist", sc)
		}
		roots = doc.Scenes[sc].Nodes
	} else {
		for i := 0; i < n; i++ {
			if g.parent[i] < 0 {
				roots = append(roots, i)
			}
		}
	}
	seen := make([]bool, n)
	for _, r := range roots {
		if r < 0 || r >= n {
			return nil, fmt.Errorf("scene root %d does not exist", r)
		}
		if g.parent[r] >= 0 {
			return nil, fmt.Errorf("scene root %d has a parent", r)
		}
		if seen[r] {
			continue
		}
		seen[r] = true
		g.order = append(g.order, r)
	}
	for k := 0; k < len(g.order); k++ {
		for _, c := range doc.Nodes[g.order[k]].Children {
			if seen[c] {
				return nil, fmt.Errorf("node %d is reached twice (a cycle)", c)
			}
			seen[c] = true
			g.order = append(g.order, c)
		}
	}
	return g, nil
}

// globals returns every node's global transform for the local transforms
// local (the identity for nodes outside the scene).
func (g *graph) globals(local []trs) []linalg.Affine {
	out := make([]linalg.Affine, len(local))
	for i := range out {
		out[i] = linalg.IdentityAffine()
	}
	for _, i := range g.order {
		a := local[i].affine()
		if p := g.parent[i]; p >= 0 {
			a = out[p].Mul(a)
		}
		out[i] = a
	}
	return out
}
