package edit

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/meshrig/meshrig/internal/testkit/testrig"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/rig"
)

// TestRefusals: edits that would make an invalid rig, and ops a viewer
// could send with bad fields, are one-line errors naming what is wrong;
// the rig is unchanged.
func TestRefusals(t *testing.T) {
	in := biped(t)
	before := clone(in)
	n := in.Skeleton.Len()
	nan, inf := math.NaN(), math.Inf(1)
	spine, head := int(byName(t, in, "spine")), int(byName(t, in, "head"))
	cases := []struct {
		op   Op
		want string
	}{
		{Op{Kind: "remove", Joint: 0}, "the root has 3 children"},
		{Op{Kind: "reparent", Joint: spine, Parent: head}, "cycle"},
		{Op{Kind: "reparent", Joint: spine, Parent: spine}, "cycle"},
		{Op{Kind: "reparent", Joint: 0, Parent: head}, "it is the root"},
		{Op{Kind: "split", Joint: 0, T: 0.5}, "the root has no bone above it"},
		{Op{Kind: "split", Joint: head, T: 0}, "not strictly between 0 and 1"},
		{Op{Kind: "split", Joint: head, T: 1}, "not strictly between 0 and 1"},
		{Op{Kind: "split", Joint: head, T: -0.5}, "not strictly between 0 and 1"},
		{Op{Kind: "split", Joint: head, T: nan}, "not strictly between 0 and 1"},
		{Op{Kind: "split", Joint: head, T: inf}, "not strictly between 0 and 1"},
		{Op{Kind: "move", Joint: head, Head: [3]float64{0, nan, 0}}, "not a finite point"},
		{Op{Kind: "move", Joint: head, Head: [3]float64{inf, 0, 0}}, "not a finite point"},
		{Op{Kind: "add", Parent: head, Head: [3]float64{0, 0, -inf}}, "not a finite point"},
		{Op{Kind: "rename", Joint: head, Name: ""}, "empty name"},
		{Op{Kind: "rename", Joint: head, Name: "a\xffb"}, "not valid UTF-8"},
		{Op{Kind: "rename", Joint: head, Name: "spine"}, "is the name of joint 1"},
		{Op{Kind: "delete", Joint: head}, `unknown edit "delete"`},
		{Op{Kind: "", Joint: head}, `unknown edit ""`},
		{Op{Kind: "MOVE", Joint: head}, `unknown edit "MOVE"`},
	}
	for _, kind := range []string{"move", "split", "remove", "reparent", "root", "rename"} {
		for _, j := range []int{-1, n, 1 << 40, math.MinInt} {
			cases = append(cases, struct {
				op   Op
				want string
			}{Op{Kind: kind, Joint: j, Parent: 1, T: 0.5, Name: "x"}, "out of range"})
		}
	}
	for _, kind := range []string{"add", "reparent"} {
		for _, p := range []int{-1, n, math.MaxInt} {
			cases = append(cases, struct {
				op   Op
				want string
			}{Op{Kind: kind, Joint: head, Parent: p}, "parent"})
		}
	}
	for _, tc := range cases {
		out, ids, err := Apply(in, tc.op)
		if err == nil || out != nil || ids != nil {
			t.Errorf("%+v: no error", tc.op)
			continue
		}
		if msg := err.Error(); !strings.Contains(msg, tc.want) || strings.Contains(msg, "\n") {
			t.Errorf("%+v: error %q, want one line with %q", tc.op, msg, tc.want)
		}
	}
	if !reflect.DeepEqual(in, before) {
		t.Fatal("a refused edit changed the rig")
	}

	t.Run("only joint", func(t *testing.T) {
		r := tube(t)
		for _, j := range []rig.JointID{2, 1} {
			var err error
			if r, _, err = RemoveJoint(r, j); err != nil {
				t.Fatal(err)
			}
		}
		if _, _, err := RemoveJoint(r, 0); err == nil || !strings.Contains(err.Error(), "only joint") {
			t.Errorf("removing the only joint: %v", err)
		}
	})
	t.Run("bad input rig", func(t *testing.T) {
		if _, _, err := Apply(nil, Op{Kind: "root"}); err == nil {
			t.Error("nil rig accepted")
		}
		if _, err := MoveJoint(nil, 0, linalg.Vec3{}); err == nil {
			t.Error("nil rig accepted")
		}
		r := clone(tube(t))
		r.Skin[5].Weight[0] += 0.5
		if _, _, err := Apply(r, Op{Kind: "root", Joint: 1}); err == nil || !strings.Contains(err.Error(), "vertex 6") {
			t.Errorf("invalid rig: %v", err)
		}
		r = clone(tube(t))
		r.Clips[0].Rotation = r.Clips[0].Rotation[:5]
		if _, _, err := Apply(r, Op{Kind: "remove", Joint: 1}); err == nil {
			t.Error("short clip accepted")
		}
	})
}

// TestNewNames: new joints take the first joint_NN no joint has.
func TestNewNames(t *testing.T) {
	r, err := Rename(tube(t), 1, "joint_01")
	if err != nil {
		t.Fatal(err)
	}
	r, a, err := SplitBone(r, 2, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	r, b, err := AddChild(r, 0, linalg.Vec3{0, 1, 0})
	if err != nil {
		t.Fatal(err)
	}
	if got := []string{r.Skeleton.Joints[a].Name, r.Skeleton.Joints[b].Name}; got[0] != "joint_02" || got[1] != "joint_03" {
		t.Errorf("new joints named %v", got)
	}
}

// FuzzApply applies a few ops decoded from the fuzz bytes in turn to the
// tube (with scale tracks when the bytes are odd in number): every op
// either fails with a one-line error or gives a valid rig with what
// checkEdit asks (input unchanged, weights, rigid clips, names and heads
// carried by the id map), and scale tracks stay scale tracks.
func FuzzApply(f *testing.F) {
	// Eight bytes an op: kind, joint+1, parent+1 (mod 8), fraction·250,
	// head·16 (−128 NaN, 127 −Inf), name.
	f.Add([]byte{0, 2, 0, 100, 10, 0, 0, 0})                                                   // move b
	f.Add([]byte{1, 3, 0, 125, 0, 0, 0, 0, 2, 0, 1, 0, 1, 2, 3, 1})                            // split above c, add under a
	f.Add([]byte{3, 2, 0, 0, 0, 0, 0, 0, 5, 2, 0, 0, 0, 0, 0, 0})                              // remove b, root at c
	f.Add([]byte{4, 3, 1, 0, 0, 0, 0, 0, 5, 3, 0, 0, 0, 0, 0, 0, 6, 1, 0, 0, 0, 0, 0, 4})      // reparent c, root at c, rename a
	f.Add([]byte{0, 2, 0, 0, 0x80, 0, 0, 0, 1, 2, 0, 250, 0, 0, 0, 0, 8, 7, 7, 0, 0, 0, 0, 0}) // NaN head, NaN fraction, bogus kind
	f.Add([]byte{6, 2, 0, 0, 0, 0, 0, 5, 1, 3, 0, 125, 0, 0, 0, 0, 9})                         // scaled: rename b, split above c
	f.Fuzz(func(t *testing.T, data []byte) {
		kinds := []string{"move", "split", "add", "remove", "reparent", "root", "rename", "", "bogus"}
		names := []string{"", "a", "c", "\xff", "joint_01", "x", "b"}
		r := tube(t)
		scaled := len(data)%2 == 1
		if scaled {
			r = testrig.SquashTube(t, 12, linalg.Vec3{0.5, -0.2, 0.1}, testrig.KeepArea)
		}
		for step := 0; step < 6 && len(data) >= 8; step++ {
			b := data[:8]
			data = data[8:]
			op := Op{Kind: kinds[int(b[0])%len(kinds)], Joint: int(b[1]%8) - 1, Parent: int(b[2]%8) - 1, Name: names[int(b[7])%len(names)]}
			switch {
			case b[3] < 250:
				op.T = float64(b[3]) / 250
			case b[3] == 250:
				op.T = math.NaN()
			default:
				op.T = math.Inf(1)
			}
			for k := range op.Head {
				switch v := int8(b[4+k]); v {
				case math.MinInt8:
					op.Head[k] = math.NaN()
				case math.MaxInt8:
					op.Head[k] = math.Inf(-1)
				default:
					op.Head[k] = float64(v) / 16
				}
			}
			before := clone(r)
			out, ids, err := Apply(r, op)
			if err != nil {
				if out != nil || strings.Contains(err.Error(), "\n") {
					t.Fatalf("%+v: %q with a rig", op, err)
				}
				if !reflect.DeepEqual(r, before) {
					t.Fatalf("%+v: refused, but changed the rig", op)
				}
				continue
			}
			keepName, keepHead := rig.JointID(-2), rig.JointID(-2)
			switch op.Kind {
			case "rename":
				keepName = rig.JointID(op.Joint)
			case "move":
				keepHead = rig.JointID(op.Joint)
			}
			checkEdit(t, r, before, out, ids, keepName, keepHead, false)
			if out.Clips[0].HasScale() != scaled {
				t.Fatalf("%+v: scale tracks %v, want %v", op, out.Clips[0].HasScale(), scaled)
			}
			r = out
		}
	})
}

// BenchmarkApply measures one edit of each kind on the generated biped
// (about 4000 vertices, 10 frames): what a viewer waits for per edit.
func BenchmarkApply(b *testing.B) {
	in := biped(b)
	elbow, chest := int(byName(b, in, "elbow_l")), int(byName(b, in, "chest"))
	for _, op := range []Op{
		{Kind: "move", Joint: elbow, Head: [3]float64{0.45, 1.45, 0}},
		{Kind: "split", Joint: elbow, T: 0.5},
		{Kind: "add", Parent: elbow, Head: [3]float64{0.5, 1.6, 0}},
		{Kind: "remove", Joint: elbow},
		{Kind: "reparent", Joint: elbow, Parent: chest},
		{Kind: "root", Joint: elbow},
		{Kind: "rename", Joint: elbow, Name: "forearm"},
	} {
		b.Run(op.Kind, func(b *testing.B) {
			for b.Loop() {
				if _, _, err := Apply(in, op); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
