package refit

import (
	"context"
	"strings"
	"testing"

	"github.com/meshrig/meshrig/character"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/metric"
	"github.com/meshrig/meshrig/rig"
)

// flexArms is the biped whose arms bulge (biceps and forearms) and the
// generator's rig, which replays it without the bulge.
var flexArms = []string{"shoulder_l", "shoulder_r", "elbow_l", "elbow_r"}

// TestHelpersTakeTheBulge: the body rig with 4 helpers removes at least
// half its RMSE% on the bulging biped; the body joints' tracks are the
// input's, value for value; vertices out of the helpers' reach keep their
// weights bit for bit.
func TestHelpersTakeTheBulge(t *testing.T) {
	body, err := character.Generate(character.Biped, character.Options{Frames: 24, Vertices: 2000})
	if err != nil {
		t.Fatal(err)
	}
	s, err := character.Flex(body, flexArms, 0.02)
	if err != nil {
		t.Fatal(err)
	}
	for _, slide := range []bool{false, true} {
		out, rep, err := Animation(context.Background(), body, s, Options{Helpers: 4, HelperTranslate: slide})
		if err != nil {
			t.Fatal(err)
		}
		m, err := metric.Compare(s, out)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := metric.Compare(s, body)
		t.Logf("translate=%v: body RMSE%% %.4f → %.4f with helpers (exported %.4f, Max%% %.3f → %.3f), %d rounds", slide, rep.BodyRMSEPercent, rep.RMSEPercent, m.RMSEPercent, b.MaxPercent, m.MaxPercent, rep.Rounds)
		if m.RMSEPercent > rep.BodyRMSEPercent/2 {
			t.Errorf("translate=%v: helpers removed %.0f%% of the body's error, want ≥ 50%%", slide, 100*(1-m.RMSEPercent/rep.BodyRMSEPercent))
		}
		if len(rep.Helpers) != 4 || out.Skeleton.Len() != body.Skeleton.Len()+4 {
			t.Fatalf("%d helpers, %d joints", len(rep.Helpers), out.Skeleton.Len())
		}
		nb := body.Skeleton.Len()
		for j := 0; j < nb; j++ {
			if out.Skeleton.Joints[j] != body.Skeleton.Joints[j] {
				t.Fatalf("joint %d changed: %+v", j, out.Skeleton.Joints[j])
			}
		}
		for _, h := range rep.Helpers {
			jt := out.Skeleton.Joints[h]
			if !strings.HasPrefix(jt.Name, "helper_") || !strings.Contains(jt.Name, "shoulder") && !strings.Contains(jt.Name, "elbow") && !strings.Contains(jt.Name, "wrist") {
				t.Errorf("helper %q hangs off the arms' bulges' joints? parent %s", jt.Name, out.Skeleton.Joints[jt.Parent].Name)
			}
		}
		J := out.Skeleton.Len()
		for f := 0; f < body.Clips[0].Frames; f++ {
			for j := 0; j < nb; j++ {
				if out.Clips[0].Rotation[f*J+j] != body.Clips[0].Rotation[f*nb+j] || out.Clips[0].Translation[f*J+j] != body.Clips[0].Translation[f*nb+j] {
					t.Fatalf("frame %d joint %d: track changed", f, j)
				}
			}
		}
		changed := 0
		for i := range out.Skin {
			if out.Skin[i] != body.Skin[i] {
				changed++
			}
		}
		t.Logf("%d of %d vertices took new weights", changed, len(out.Skin))
		if changed == 0 || changed > len(out.Skin)/2 {
			t.Errorf("%d of %d vertices reweighted", changed, len(out.Skin))
		}
	}
}

// TestHelpersBadInput: clips that do not match, joints that do not exist.
func TestHelpersBadInput(t *testing.T) {
	body, s := biped(t)
	short := *body
	short.Clips = []rig.Clip{body.Clips[0]}
	short.Clips[0].Frames = 10
	short.Clips[0].Rotation = short.Clips[0].Rotation[:10*body.Skeleton.Len()]
	short.Clips[0].Translation = short.Clips[0].Translation[:10*body.Skeleton.Len()]
	for _, c := range []struct {
		r    *rig.Rig
		o    Options
		want string
	}{
		{&short, Options{Helpers: 2}, "clips have 10 frames, the animation 24"},
		{body, Options{Helpers: 2, Lock: []rig.JointID{99}}, "locked joint 99 does not exist"},
		{body, Options{Helpers: 2}, "replays the animation exactly"},
		{body, Options{Mask: make([]float64, 3)}, "the mask has 3 values"},
	} {
		_, _, err := Animation(context.Background(), c.r, s, c.o)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: got %v, want %q", c.o, err, c.want)
		}
	}
}

// TestLockRefitsTheRest: Lock without Helpers (Dem Bones' demLock) refits
// the unlocked joints' tracks, here a left arm whose motion was lost,
// and keeps every locked track value for value.
func TestLockRefitsTheRest(t *testing.T) {
	truth, s := biped(t)
	r := *truth
	nj := r.Skeleton.Len()
	c := r.Clips[0]
	c.Rotation = append([]linalg.Quat(nil), c.Rotation...)
	var lock []rig.JointID
	for j, jt := range r.Skeleton.Joints {
		if strings.HasSuffix(jt.Name, "_l") && (strings.HasPrefix(jt.Name, "elbow") || strings.HasPrefix(jt.Name, "wrist")) {
			for f := 0; f < c.Frames; f++ {
				c.Rotation[f*nj+j] = linalg.IdentityQuat
			}
			continue
		}
		lock = append(lock, rig.JointID(j))
	}
	r.Clips = []rig.Clip{c}
	out, rep, err := Animation(context.Background(), &r, s, Options{Lock: lock})
	if err != nil {
		t.Fatal(err)
	}
	m, _ := metric.Compare(s, out)
	t.Logf("lost forearm: RMSE%% %.4f → %.4f", rep.BodyRMSEPercent, m.RMSEPercent)
	if m.RMSEPercent > rep.BodyRMSEPercent/20 {
		t.Errorf("RMSE%% %.4f from %.4f", m.RMSEPercent, rep.BodyRMSEPercent)
	}
	for _, j := range lock {
		for f := 0; f < c.Frames; f++ {
			if out.Clips[0].Rotation[f*nj+int(j)] != c.Rotation[f*nj+int(j)] || out.Clips[0].Translation[f*nj+int(j)] != c.Translation[f*nj+int(j)] {
				t.Fatalf("locked joint %d changed at frame %d", j, f)
			}
		}
	}
}

// BenchmarkHelpers: 4 helpers on the bulging biped (2000 vertices, 24
// frames): clustering, start and the rounds.
func BenchmarkHelpers(b *testing.B) {
	body, err := character.Generate(character.Biped, character.Options{Frames: 24, Vertices: 2000})
	if err != nil {
		b.Fatal(err)
	}
	s, err := character.Flex(body, flexArms, 0.02)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, _, err := Animation(context.Background(), body, s, Options{Helpers: 4}); err != nil {
			b.Fatal(err)
		}
	}
}
