package contraction

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/meshrig/meshrig/internal/testkit/testshape"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/method/static"
)

// TestJointLimit: more joints than the mesh graph can carry are refused
// with an error naming the limit; the most it carries are given.
func TestJointLimit(t *testing.T) {
	// 58 vertices, not subdivided: the graph has 58 vertices.
	coarse := testshape.Join(t, func() ([]linalg.Vec3, [][]int) { return capsule(2, 0.5, 8, 4, 2) })
	for _, c := range []struct {
		name string
		opt  Options
		want string
	}{
		{"million", Options{Joints: 1000000}, "ask for at most 6000"},
		{"above MaxVertices", Options{Joints: 801, MaxVertices: 800}, "ask for at most 800"},
		{"above the graph", Options{Joints: 59, MinVertices: -1}, "the 58 vertices of the mesh graph"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Skeleton(context.Background(), coarse, c.opt)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one saying %q", err, c.want)
			}
		})
	}
	s, _ := run(t, coarse, Options{Joints: 58, MinVertices: -1})
	if len(s.Joints) != 58 {
		t.Errorf("%d joints, asked for 58", len(s.Joints))
	}
}

// TestCancelGraph: a cancelled context stops the work while the graph is
// built (a dense mesh's decimation can take minutes), not after it.
func TestCancelGraph(t *testing.T) {
	m := testshape.Join(t, func() ([]linalg.Vec3, [][]int) { return testshape.Torus(2, 0.5, 96, 96) })
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var stages []string
	_, err := Skeleton(ctx, m, Options{Progress: func(stage string, done, total int) {
		if done == total {
			stages = append(stages, stage)
		}
	}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	if len(stages) > 0 {
		t.Errorf("stages %q finished after the context was cancelled", stages)
	}
}

// TestDecimateCancel: decimation returns the context's error once it is
// cancelled.
func TestDecimateCancel(t *testing.T) {
	m := testshape.Join(t, func() ([]linalg.Vec3, [][]int) { return testshape.Torus(2, 0.5, 96, 96) })
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, _, err := decimate(ctx, m.Verts, tris(t, m), 600); !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
}

// TestSplitBonesOrder: the heap splits the same bones in the same order
// as a scan for the longest bone (ties to the lower edge index) would,
// on equal bones (all ties) and on random ones.
func TestSplitBonesOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for name, sk := range map[string]*static.Skeleton{"equal": chainSkeleton(12, nil), "random": chainSkeleton(40, rng)} {
		want := cloneSkeleton(sk)
		for len(want.Joints) < 2000 {
			best, bl := 0, -1.0
			for k, e := range want.Edges {
				if l := want.Joints[e[0]].Dist(want.Joints[e[1]]); l > bl {
					best, bl = k, l
				}
			}
			e := want.Edges[best]
			m := len(want.Joints)
			want.Joints = append(want.Joints, want.Joints[e[0]].Add(want.Joints[e[1]]).Scale(0.5))
			want.Edges[best] = [2]int{e[0], m}
			want.Edges = append(want.Edges, [2]int{m, e[1]})
		}
		before := len(sk.Joints)
		n, err := splitBones(context.Background(), sk, 2000)
		if err != nil || n != 2000-before || len(sk.Joints) != 2000 {
			t.Fatalf("%s: %d joints added (%v), %d in all", name, n, err, len(sk.Joints))
		}
		for j := range want.Joints {
			if sk.Joints[j] != want.Joints[j] {
				t.Fatalf("%s: joint %d at %v, want %v", name, j, sk.Joints[j], want.Joints[j])
			}
		}
		for k := range want.Edges {
			if sk.Edges[k] != want.Edges[k] {
				t.Fatalf("%s: bone %d is %v, want %v", name, k, sk.Edges[k], want.Edges[k])
			}
		}
	}
}

// TestSplitBonesCancel: splitting stops with the context's error.
func TestSplitBonesCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := splitBones(ctx, chainSkeleton(24, nil), 100000); !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
}

// BenchmarkSplitBones grows a 24-joint chain to 20,000 joints (the
// issue's case: 5 s when each split scanned every bone).
func BenchmarkSplitBones(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	sk := chainSkeleton(24, rng)
	for b.Loop() {
		if _, err := splitBones(context.Background(), cloneSkeleton(sk), 20000); err != nil {
			b.Fatal(err)
		}
	}
}

// chainSkeleton returns a chain of n joints, one unit apart along x, or
// randomly spaced when rng is set.
func chainSkeleton(n int, rng *rand.Rand) *static.Skeleton {
	sk := &static.Skeleton{}
	var x float64
	for j := range n {
		sk.Joints = append(sk.Joints, linalg.Vec3{x, 0, 0})
		if j > 0 {
			sk.Edges = append(sk.Edges, [2]int{j - 1, j})
		}
		step := 1.0
		if rng != nil {
			step = 0.1 + rng.Float64()
		}
		x += step
	}
	return sk
}

func cloneSkeleton(sk *static.Skeleton) *static.Skeleton {
	return &static.Skeleton{
		Joints: append([]linalg.Vec3(nil), sk.Joints...),
		Edges:  append([][2]int(nil), sk.Edges...),
		Root:   sk.Root,
	}
}
