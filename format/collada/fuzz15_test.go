package collada

import (
	"bytes"
	"testing"

	"github.com/meshrig/meshrig/rig"
)

// FuzzWrite15 writes COLLADA 1.5 for rigs with arbitrary joint names and
// limits: valid input gives a document whose references resolve, whose
// kinematics model resolves and mirrors the skeleton, and which replays;
// invalid limits are refused with nothing written.
func FuzzWrite15(f *testing.F) {
	f.Add("a", "b", "c", -10.0, 10.0)
	f.Add("a-joint", "a", "kinematics-model", 0.0, 0.0)
	f.Add("b-link", "b", "model", 5.0, -5.0)
	f.Add("kinematics-scene", "rotateX", "x", 1e308, 1e308)
	f.Fuzz(func(t *testing.T, j0, j1, j2 string, lo, hi float64) {
		r := chainRig(t, 3, 2, 3, 2, 1, true)
		r.Skeleton.Joints[0].Name, r.Skeleton.Joints[1].Name, r.Skeleton.Joints[2].Name = j0, j1, j2
		if r.Validate() != nil {
			return
		}
		limits := map[rig.JointID]Limits{2: {Min: [3]float64{lo, lo, lo}, Max: [3]float64{hi, hi, hi}}}
		var buf bytes.Buffer
		err := Write15(&buf, r, limits)
		if checkLimits(r, limits) != nil {
			if err == nil || buf.Len() > 0 {
				t.Fatalf("limits [%v, %v] accepted", lo, hi)
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := checkReferences15(buf.Bytes()); err != nil {
			t.Fatal(err)
		}
		kin, _, err := kinematics15(buf.Bytes())
		if err != nil || len(kin) != 2 {
			t.Fatalf("kinematics: %v, %d joints", err, len(kin))
		}
		if _, err := decode(buf.Bytes()); err != nil {
			t.Fatal(err)
		}
	})
}
