package fuzzmesh

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/meshrig/meshrig/internal/testkit/rigcheck"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/method/static"
	"github.com/meshrig/meshrig/rig"
	"github.com/meshrig/meshrig/seq"
)

// Deadline is how long a method may take on one fuzz input before the
// input counts as a hang. The inputs are tiny: a method that runs this
// long is looping, not working.
const Deadline = 20 * time.Second

// MaxInput bounds the fuzz input; longer inputs are skipped: the tube and
// its motion take at most about 330 bytes, the rest is only noise, and
// every execution of a long input while Go minimizes it is a full rig.
const MaxInput = 512

// CheckRig runs rigf on the sequence data describes and fails t unless it
// returns, within Deadline, a rig that passes rigcheck.Check (a valid
// skeletal rig, one to four weights per vertex summing to 1, one clip per
// input clip) or a non-empty error.
func CheckRig(t *testing.T, data []byte, rigf func(ctx context.Context, s *seq.Sequence) (*rig.Rig, error)) {
	t.Helper()
	if len(data) > MaxInput {
		return
	}
	s, err := Sequence(data)
	if err != nil {
		t.Fatalf("fuzzmesh: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), Deadline)
	defer cancel()
	r, err := rigf(ctx, s)
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		t.Fatalf("no answer within %v (%d vertices, %d frames): %v", Deadline, s.N(), s.F(), err)
	}
	if err != nil {
		if err.Error() == "" {
			t.Fatal("empty error")
		}
		t.Logf("%d vertices, %d frames: %v", s.N(), s.F(), err)
		return
	}
	rep := rigcheck.Check(t, s, r)
	t.Logf("%d vertices, %d frames: %d joints, RMSE%% %.3g", s.N(), s.F(), r.Skeleton.Len(), rep.RMSEPercent)
}

// CheckSkeleton runs skel on the tube data describes and fails t unless
// it returns, within Deadline, a valid skeleton whose joints lie in the
// mesh's bounding box, or a non-empty error.
func CheckSkeleton(t *testing.T, data []byte, skel func(ctx context.Context, m *mesh.Mesh) (*static.Skeleton, error)) {
	t.Helper()
	if len(data) > MaxInput {
		return
	}
	tube, _, err := NewTube(data)
	if err != nil {
		t.Fatalf("fuzzmesh: %v", err)
	}
	m := tube.Mesh
	ctx, cancel := context.WithTimeout(context.Background(), Deadline)
	defer cancel()
	s, err := skel(ctx, m)
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		t.Fatalf("no answer within %v (%d vertices): %v", Deadline, len(m.Verts), err)
	}
	if err != nil {
		if err.Error() == "" {
			t.Fatal("empty error")
		}
		t.Logf("%d vertices: %v", len(m.Verts), err)
		return
	}
	t.Logf("%d vertices: %d joints", len(m.Verts), len(s.Joints))
	if err := s.Validate(); err != nil {
		t.Fatalf("invalid skeleton: %v", err)
	}
	lo, hi := mesh.Bounds(m.Verts)
	slack := 1e-9 * (1 + hi.Sub(lo).Norm())
	for j, p := range s.Joints {
		for a := 0; a < 3; a++ {
			if !(p[a] >= lo[a]-slack && p[a] <= hi[a]+slack) {
				t.Fatalf("joint %d at %v is outside the bounding box %v–%v", j, p, lo, hi)
			}
		}
	}
}
