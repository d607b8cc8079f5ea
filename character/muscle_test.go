package character

import (
	"reflect"
	"strings"
	"testing"
)

// TestFlex: the bulge moves only the flexed segments' vertices, by at most
// amount, and amount 0 replays Sequence exactly; unknown joints fail.
func TestFlex(t *testing.T) {
	r, err := Generate(Biped, Options{Frames: 12, Vertices: 1500})
	if err != nil {
		t.Fatal(err)
	}
	plain := Sequence(r)
	zero, err := Flex(r, []string{"shoulder_l"}, 0)
	if err != nil || !reflect.DeepEqual(zero.Frames, plain.Frames) {
		t.Fatalf("amount 0 changed the frames (err %v)", err)
	}
	s, err := Flex(r, []string{"shoulder_l", "elbow_r"}, 0.02)
	if err != nil {
		t.Fatal(err)
	}
	moved, most := 0, 0.0
	for k := range s.Frames {
		d := s.Frames[k].Vec3().Dist(plain.Frames[k].Vec3())
		if d > 0 {
			moved++
			dom := r.Skeleton.Joints[r.Skin[k%len(r.Mesh.Verts)].Dominant()].Name
			if dom != "shoulder_l" && dom != "elbow_r" {
				t.Fatalf("vertex on %s moved", dom)
			}
		}
		most = max(most, d)
	}
	if moved == 0 || most > 0.02+1e-12 || most < 0.01 {
		t.Errorf("%d positions moved, at most %.4f", moved, most)
	}
	if _, err := Flex(r, []string{"tail"}, 0.02); err == nil || !strings.Contains(err.Error(), `"tail"`) {
		t.Errorf("unknown joint: %v", err)
	}
}
