package spantree

import (
	"math"
	"testing"
)

func TestMinimumAndMaximum(t *testing.T) {
	// A square 0-1-2-3 with a diagonal 0-2.
	edges := []Edge{{0, 1, 1}, {1, 2, 2}, {2, 3, 1}, {3, 0, 5}, {0, 2, 3}}
	min := Minimum(4, edges)
	var w float64
	for _, e := range min {
		w += e.W
	}
	if len(min) != 3 || w != 4 {
		t.Fatalf("minimum tree %v weight %v, want 3 edges weight 4", min, w)
	}
	max := Maximum(4, edges)
	w = 0
	for _, e := range max {
		w += e.W
	}
	if len(max) != 3 || w != 10 {
		t.Fatalf("maximum tree %v weight %v, want weight 10", max, w)
	}
}

func TestForestAndRoot(t *testing.T) {
	edges := []Edge{{0, 1, 1}, {2, 3, 1}, {1, 4, 2}}
	f := Minimum(5, edges)
	if len(f) != 3 {
		t.Fatalf("forest %v", f)
	}
	parent, order := Root(5, f, 1)
	if parent[1] != -1 || parent[0] != 1 || parent[4] != 1 || parent[2] != -1 {
		t.Fatalf("parents %v", parent)
	}
	if len(order) != 3 || order[0] != 1 {
		t.Fatalf("order %v", order)
	}
}

func TestTiesAreDeterministic(t *testing.T) {
	edges := []Edge{{0, 1, 1}, {1, 2, 1}, {0, 2, 1}}
	for k := 0; k < 10; k++ {
		f := Minimum(3, edges)
		if f[0] != edges[0] || f[1] != edges[1] {
			t.Fatalf("tie broken differently: %v", f)
		}
	}
}

func TestConnect(t *testing.T) {
	// Two components {0,1} and {2,3}; nodes on a line at 0, 1, 5, 6.
	x := []float64{0, 1, 5, 6}
	forest := []Edge{{0, 1, 7}, {2, 3, 9}}
	tree := Connect(4, forest, func(a, b int) float64 { return math.Abs(x[a] - x[b]) })
	if len(tree) != 3 {
		t.Fatalf("tree %v", tree)
	}
	has := func(a, b int) bool {
		for _, e := range tree {
			if (e.A == a && e.B == b) || (e.A == b && e.B == a) {
				return true
			}
		}
		return false
	}
	if !has(0, 1) || !has(2, 3) || !has(1, 2) {
		t.Fatalf("tree %v: want the forest plus the link 1–2", tree)
	}
	for _, e := range tree {
		if e.A == 0 && e.B == 1 && e.W != 7 {
			t.Fatalf("forest edge lost its weight: %v", e)
		}
	}
}

func TestSets(t *testing.T) {
	s := NewSets(5)
	if !s.Union(0, 1) || !s.Union(3, 4) || s.Union(1, 0) {
		t.Fatal("Union reported wrongly")
	}
	if s.Find(0) != s.Find(1) || s.Find(3) != s.Find(4) || s.Find(1) == s.Find(3) || s.Find(2) != 2 {
		t.Fatalf("sets %v", s)
	}
	if !s.Union(1, 4) || s.Find(0) != s.Find(3) {
		t.Fatalf("after joining: %v", s)
	}
}
