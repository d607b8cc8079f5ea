// Package static holds what the single-mesh skeleton methods share: the
// skeleton graph they return, and turning it into a rig once skin weights
// are known. Methods live in their own packages (method/forcefield,
// method/contraction); weight schemes in method/skinweights.
package static

import (
	"fmt"

	"github.com/meshrig/meshrig/linalg"
)

// Skeleton is a curve skeleton of a static mesh: joint positions (model
// units) and bones between them. Edges may form loops (a torus); Root is
// the joint the exported hierarchy hangs from.
type Skeleton struct {
	Joints []linalg.Vec3
	Edges  [][2]int
	Root   int
	// Names, when not nil, names the joints (one per joint; "" leaves a
	// joint unnamed): a layout's convention (hips, spine, upper_arm.L, …)
	// that Rig uses in place of "joint<i>".
	Names []string
}

// Validate checks indices and that the graph is connected.
func (s *Skeleton) Validate() error {
	n := len(s.Joints)
	if n == 0 {
		return fmt.Errorf("skeleton has no joints")
	}
	if s.Root < 0 || s.Root >= n {
		return fmt.Errorf("root %d out of range (%d joints)", s.Root, n)
	}
	for k, e := range s.Edges {
		if e[0] < 0 || e[1] < 0 || e[0] >= n || e[1] >= n || e[0] == e[1] {
			return fmt.Errorf("edge %d (%d–%d) is invalid for %d joints", k, e[0], e[1], n)
		}
	}
	if s.Names != nil && len(s.Names) != n {
		return fmt.Errorf("%d names for %d joints", len(s.Names), n)
	}
	parent, _ := s.Tree()
	for j, p := range parent {
		if p == -2 {
			return fmt.Errorf("joint %d is not connected to the root", j)
		}
	}
	return nil
}

// Tree returns a breadth-first spanning tree of the graph from Root: each
// joint's parent (-1 for the root, -2 when unreachable) and the joints in
// breadth-first order. Loops are cut where the search meets them again.
func (s *Skeleton) Tree() (parent []int, order []int) {
	n := len(s.Joints)
	adj := make([][]int, n)
	for _, e := range s.Edges {
		adj[e[0]] = append(adj[e[0]], e[1])
		adj[e[1]] = append(adj[e[1]], e[0])
	}
	parent = make([]int, n)
	for i := range parent {
		parent[i] = -2
	}
	parent[s.Root] = -1
	order = []int{s.Root}
	for q := 0; q < len(order); q++ {
		for _, c := range adj[order[q]] {
			if parent[c] == -2 {
				parent[c] = order[q]
				order = append(order, c)
			}
		}
	}
	return parent, order
}
