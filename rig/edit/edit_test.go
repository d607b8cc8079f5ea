package edit

import (
	"testing"

	"github.com/meshrig/meshrig/rig"
)

// TestEdits runs every kind of edit through Apply on the tube, the
// generated biped and the free form, and checks what each keeps
// (checkEdit); the edits that must not change playback are held to 1e-9
// of the diagonal. Two edits of the placed tube keep its motion but leave
// the body's free track under a still joint with two children, which
// Clip.Skeletal does not count as skeletal (loose).
func TestEdits(t *testing.T) {
	cases := []struct {
		name          string
		rig           func(testing.TB) *rig.Rig
		op            Op
		joint, parent string // resolved to op.Joint, op.Parent
		exact         bool   // every vertex plays as before
		loose         bool   // may stop being skeletal
	}{
		{"tube/move root", tube, Op{Kind: "move", Head: [3]float64{0.9, 0.1, -0.3}}, "a", "", true, false},
		{"tube/move middle", tube, Op{Kind: "move", Head: [3]float64{1.4, 0.2, 0.3}}, "b", "", false, false},
		{"tube/move leaf", tube, Op{Kind: "move", Head: [3]float64{2.2, 0, 0}}, "c", "", false, false},
		{"tube/split", tube, Op{Kind: "split", T: 0.5}, "b", "", true, false},
		{"tube/split leaf bone", tube, Op{Kind: "split", T: 0.25}, "c", "", true, false},
		{"tube/add under leaf", tube, Op{Kind: "add", Head: [3]float64{3.5, -0.2, 0.1}}, "", "c", true, false},
		{"tube/add under root", tube, Op{Kind: "add", Head: [3]float64{0, 1, 0}}, "", "a", true, false},
		{"tube/remove middle", tube, Op{Kind: "remove"}, "b", "", false, false},
		{"tube/remove leaf", tube, Op{Kind: "remove"}, "c", "", false, false},
		{"tube/remove root of one child", tube, Op{Kind: "remove"}, "a", "", false, false},
		{"tube/reparent leaf to root", tube, Op{Kind: "reparent"}, "c", "a", false, false},
		{"tube/root at leaf", tube, Op{Kind: "root"}, "c", "", false, false},
		{"tube/root at middle", tube, Op{Kind: "root"}, "b", "", false, false},
		{"tube/root at root", tube, Op{Kind: "root"}, "a", "", true, false},
		{"tube/rename", tube, Op{Kind: "rename", Name: "elbow"}, "b", "", true, false},
		{"biped/move pelvis", biped, Op{Kind: "move", Head: [3]float64{0.05, 1.1, 0.02}}, "pelvis", "", true, false},
		{"biped/move elbow", biped, Op{Kind: "move", Head: [3]float64{0.47, 1.46, -0.03}}, "elbow_l", "", false, false},
		{"biped/split forearm", biped, Op{Kind: "split", T: 0.4}, "wrist_l", "", true, false},
		{"biped/split thigh", biped, Op{Kind: "split", T: 0.5}, "knee_r", "", true, false},
		{"biped/add under head", biped, Op{Kind: "add", Head: [3]float64{0, 1.86, 0.02}}, "", "head", true, false},
		{"biped/remove elbow", biped, Op{Kind: "remove"}, "elbow_l", "", false, false},
		{"biped/remove spine", biped, Op{Kind: "remove"}, "spine", "", false, false},
		{"biped/reparent wrist to chest", biped, Op{Kind: "reparent"}, "wrist_l", "chest", false, false},
		{"biped/reparent hip to chest", biped, Op{Kind: "reparent"}, "hip_l", "chest", false, false},
		{"biped/root at knee", biped, Op{Kind: "root"}, "knee_l", "", false, false},
		{"biped/root at head", biped, Op{Kind: "root"}, "head", "", false, false},
		{"biped/rename", biped, Op{Kind: "rename", Name: "hand_l"}, "wrist_l", "", true, false},
		{"free/move bone", free, Op{Kind: "move", Head: [3]float64{1.7, 0.3, 0}}, "bone_1", "", true, false},
		{"free/move root", free, Op{Kind: "move", Head: [3]float64{1, 1, 1}}, "root", "", true, false},
		{"free/split", free, Op{Kind: "split", T: 0.5}, "bone_2", "", true, false},
		{"free/reparent", free, Op{Kind: "reparent"}, "bone_2", "bone_0", true, false},
		{"free/root at bone", free, Op{Kind: "root"}, "bone_1", "", true, false},
		{"placed/move body", placed, Op{Kind: "move", Head: [3]float64{0.6, 0, 0.1}}, "a", "", true, false},
		{"placed/move ground", placed, Op{Kind: "move", Head: [3]float64{1, 0, 0}}, "ground", "", true, false},
		{"placed/split above body", placed, Op{Kind: "split", T: 0.5}, "a", "", true, false},
		{"placed/remove ground", placed, Op{Kind: "remove"}, "ground", "", true, false},
		{"placed/remove place", placed, Op{Kind: "remove"}, "place", "", true, false},
		{"placed/reparent body to ground", placed, Op{Kind: "reparent"}, "a", "ground", true, true},
		{"placed/root at body", placed, Op{Kind: "root"}, "a", "", true, false},
		{"placed/root at place", placed, Op{Kind: "root"}, "place", "", true, true},
		{"free/remove bone", free, Op{Kind: "remove"}, "bone_0", "", false, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := tc.rig(t)
			before := clone(in)
			op := tc.op
			keepName, keepHead := rig.JointID(-2), rig.JointID(-2)
			if tc.joint != "" {
				op.Joint = int(byName(t, in, tc.joint))
				switch op.Kind {
				case "rename":
					keepName = rig.JointID(op.Joint)
				case "move":
					keepHead = rig.JointID(op.Joint)
				}
			}
			if tc.parent != "" {
				op.Parent = int(byName(t, in, tc.parent))
			}
			out, ids, err := Apply(in, op)
			if err != nil {
				t.Fatal(err)
			}
			checkEdit(t, in, before, out, ids, keepName, keepHead, tc.loose)
			want := in.Skeleton.Len()
			switch op.Kind {
			case "split", "add":
				want++
				if len(ids) != in.Skeleton.Len()+1 {
					t.Fatalf("%s returned %d ids for %d joints and the new one", op.Kind, len(ids), in.Skeleton.Len())
				}
			case "remove":
				want--
				if ids[op.Joint] != Removed {
					t.Errorf("removed joint mapped to %d", ids[op.Joint])
				}
			}
			if out.Skeleton.Len() != want {
				t.Errorf("%d joints, want %d", out.Skeleton.Len(), want)
			}
			if len(ids) < in.Skeleton.Len() {
				t.Fatalf("%d ids for %d joints", len(ids), in.Skeleton.Len())
			}
			d := playback(in, out)
			if tc.exact && d > 1e-9 {
				t.Errorf("playback moved by %.3g·d, want ≤ 1e-9", d)
			}
			t.Logf("playback differs by %.3g·d", d)
		})
	}
}
