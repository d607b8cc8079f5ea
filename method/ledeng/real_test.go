package ledeng

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/meshrig/meshrig/character"
	"github.com/meshrig/meshrig/format"
	_ "github.com/meshrig/meshrig/format/abc"
	_ "github.com/meshrig/meshrig/format/fbx"
	_ "github.com/meshrig/meshrig/format/obj"
	"github.com/meshrig/meshrig/internal/shareddata"
	"github.com/meshrig/meshrig/internal/testkit/rigcheck"
	"github.com/meshrig/meshrig/internal/testkit/testrig"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/metric"
	"github.com/meshrig/meshrig/seq"
)

// TestRealSequences rigs the four datasets of the paper's Table 1 (9 to
// 204 frames, one elastic) and bounds bones and RMSE% of the exported rig
// (bones: the paper's counts, a few more allowed — the automatic count
// stops on the motion's error curve, see pruner.go; RMSE%: the paper's,
// and no more than issue 16 measured for the automatic count before it:
// cat-poses 0.320, lion-poses 0.355, horse-gallop 0.214, the cow 0.710).
// The elastic cow cannot meet both of its targets
// (11 bones, RMSE% 1.18, what a skeleton-free decomposition reaches): by
// default it keeps the bones Options.Level asks for (51, RMSE% 0.51), and
// at 11 bones it reaches the paper's own figure (1.52; here 1.41 with Bones
// 11, 1.46 with the MaxBones 11 row below).
func TestRealSequences(t *testing.T) {
	for _, tc := range []struct {
		name     string
		bones    int
		rmse     float64
		maxBones int
		opt      Options
	}{
		{name: "horse-gallop", bones: 27, rmse: 0.214, maxBones: 30},
		{name: "cat-poses", bones: 28, rmse: 0.320, maxBones: 34},
		{name: "lion-poses", bones: 30, rmse: 0.355, maxBones: 34},
		{name: "cow", bones: 11, rmse: 0.710, maxBones: 56},
		{name: "cow", bones: 11, rmse: 1.6, maxBones: 11, opt: Options{MaxBones: 11}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := loadShared(t, "sequences/"+tc.name)
			start := time.Now()
			r, err := Rig(context.Background(), in, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			secs := time.Since(start).Seconds()
			rep := rigcheck.Check(t, in, r)
			t.Logf("%s: %d bones (target ≤%d), RMSE%% %.3f (target ≤%.3f), Max%% %.2f, %.1fs",
				tc.name, rep.Bones, tc.bones, rep.RMSEPercent, tc.rmse, rep.MaxPercent, secs)
			if rep.Bones > tc.maxBones {
				t.Errorf("%d bones, more than %d", rep.Bones, tc.maxBones)
			}
			if rep.RMSEPercent > tc.rmse {
				t.Errorf("RMSE%% %.3f above %.2f", rep.RMSEPercent, tc.rmse)
			}
		})
	}
}

// TestCountNotTheCap rigs the two sequences whose automatic count used to
// be the initialization's cap (cat-poses and the elastic cow: 32 bones
// from 32 clusters, the cow 63 from 64; the cow 32, 17 and 34 from 32, 48
// and 64) and lion-poses, whose count hung on a batch of removals (25,
// 33 and 32 before batches went back, see pruner.judge), from 32, 48 and
// 64 initial clusters: the counts agree within 20%. (The cat's 32 from 32
// clusters is where its error curve's knee stopped the pruning, not the
// cap: 37 initial bones, and 30 and 32 from more.)
func TestCountNotTheCap(t *testing.T) {
	for _, name := range []string{"cat-poses", "cow", "lion-poses"} {
		t.Run(name, func(t *testing.T) {
			in := loadShared(t, "sequences/"+name)
			var counts []int
			for _, init := range []int{32, 48, 64} {
				var again []string
				r, err := Rig(context.Background(), in, Options{InitBones: init, Notes: func(m string) {
					if strings.Contains(m, "starting again") {
						again = append(again, m)
					}
				}})
				if err != nil {
					t.Fatal(err)
				}
				rep := rigcheck.Check(t, in, r)
				t.Logf("from %d clusters: %d bones, RMSE%% %.3f; %q", init, rep.Bones, rep.RMSEPercent, again)
				counts = append(counts, rep.Bones)
			}
			lo, hi := slices.Min(counts), slices.Max(counts)
			if float64(hi-lo) > 0.2*float64(hi) {
				t.Errorf("counts %v from 32, 48 and 64 clusters differ by more than 20%%", counts)
			}
		})
	}
}

// TestBonesAsked rigs the shared sequences at the bone counts the issue
// compares at (Dem Bones' counts): Options.Bones must give that many
// bones (±1), on a skeletal rig (rigcheck), at or under the RMSE% of Dem
// Bones' free bones at that count (issue 16's table; measured 0.285,
// 0.280, 0.194) — except the elastic cow, which rotation-only bones
// cannot reach (1.488 against 1.176; --stretch does, TestStretchCow).
func TestBonesAsked(t *testing.T) {
	for _, tc := range []struct {
		name     string
		bones    int
		demBones float64
	}{{"cat-poses", 28, 0.473}, {"lion-poses", 30, 0.363}, {"horse-gallop", 26, 0.436}, {"cow", 11, 0}} {
		t.Run(tc.name, func(t *testing.T) {
			in := loadShared(t, "sequences/"+tc.name)
			r, err := Rig(context.Background(), in, Options{Bones: tc.bones})
			if err != nil {
				t.Fatal(err)
			}
			rep := rigcheck.Check(t, in, r)
			t.Logf("%s: %d bones asked, %d given, RMSE%% %.3f", tc.name, tc.bones, rep.Bones, rep.RMSEPercent)
			if d := rep.Bones - tc.bones; d < -1 || d > 1 {
				t.Errorf("%d bones asked, %d given", tc.bones, rep.Bones)
			}
			if tc.demBones > 0 && rep.RMSEPercent > tc.demBones {
				t.Errorf("RMSE%% %.3f above Dem Bones' %.3f at %d bones", rep.RMSEPercent, tc.demBones, tc.bones)
			}
		})
	}
}

// TestBonesKeptThroughFit asks for 20 bones on Dem Bones' own example
// (Bone_Anim.abc, its rest pose from Bone_Geom.fbx), where the skeletal
// fit's weight solves used to empty two bones (18 of 20 moved vertices):
// every bone asked for must still move vertices at the end.
func TestBonesKeptThroughFit(t *testing.T) {
	abc := shareddata.Path(t, "dembones/Bone_Anim.abc")
	geom := shareddata.Path(t, "dembones/Bone_Geom.fbx")
	in, err := format.Load([]string{abc}, format.LoadOptions{Rest: geom})
	if err != nil {
		t.Fatal(err)
	}
	r, err := Rig(context.Background(), in.Sequence, Options{Bones: 20})
	if err != nil {
		t.Fatal(err)
	}
	rep := rigcheck.Check(t, in.Sequence, r)
	t.Logf("20 asked: %d bones, %d joints, RMSE%% %.4f", rep.Bones, r.Skeleton.Len(), rep.RMSEPercent)
	if rep.Bones != 20 {
		t.Errorf("%d bones move vertices, 20 asked", rep.Bones)
	}
}

// TestBonesAskedGenerated asks the generated biped (17 true joints) for
// fewer and more bones than it has, the last above the default
// initialization (32): each count is given (±1), and with more bones
// than joints the exact LBS data is fitted closely.
func TestBonesAskedGenerated(t *testing.T) {
	if testing.Short() {
		t.Skip("rigs the biped three times")
	}
	truth, err := character.Generate(character.Biped, character.Options{Frames: 30, Vertices: 2000})
	if err != nil {
		t.Fatal(err)
	}
	s := character.Sequence(truth)
	var notes []string
	for _, b := range []int{6, 24, 36} {
		notes = notes[:0]
		r, err := Rig(context.Background(), s, Options{Bones: b, Notes: func(m string) { notes = append(notes, m) }})
		if err != nil {
			t.Fatal(err)
		}
		rep := rigcheck.Check(t, s, r)
		t.Logf("%d asked: %d bones, RMSE%% %.3f, notes %q", b, rep.Bones, rep.RMSEPercent, notes)
		if d := rep.Bones - b; d < -1 || d > 1 {
			t.Errorf("%d bones asked, %d given", b, rep.Bones)
		}
		if b >= 24 && rep.RMSEPercent > 0.3 {
			t.Errorf("%d bones asked: RMSE%% %.3f on exact LBS data", b, rep.RMSEPercent)
		}
	}
}

// TestBonesAskedBeyondParts asks a three-bone tube for more bones than
// its motion has rigid parts: it gives what the clustering finds, and a
// note says why.
func TestBonesAskedBeyondParts(t *testing.T) {
	s := testrig.Play(t, testrig.Tube(t, 8, linalg.Vec3{}))
	var notes []string
	r, err := Rig(context.Background(), s, Options{Bones: 200, Notes: func(m string) { notes = append(notes, m) }})
	if err != nil {
		t.Fatal(err)
	}
	rep := rigcheck.Check(t, s, r)
	t.Logf("%d bones, notes %q", rep.Bones, notes)
	if rep.Bones >= 200 {
		t.Fatalf("%d bones from a three-bone tube", rep.Bones)
	}
	found := false
	for _, n := range notes {
		found = found || strings.Contains(n, "not the 200 asked")
	}
	if !found {
		t.Errorf("no note on the bones missing: %q", notes)
	}
}

// TestGeneratedCharacters rigs every procedural character and compares
// with its true skeleton: joint error% ≤ 2 and a bone count within 20% of
// the truth (the targets).
func TestGeneratedCharacters(t *testing.T) {
	for _, k := range []character.Kind{character.Biped, character.Quadruped, character.Hand, character.Snake} {
		t.Run(string(k), func(t *testing.T) {
			truth, err := character.Generate(k, character.Options{})
			if err != nil {
				t.Fatal(err)
			}
			s := character.Sequence(truth)
			r, err := Rig(context.Background(), s, Options{})
			if err != nil {
				t.Fatal(err)
			}
			rep := rigcheck.Check(t, s, r)
			je := metric.JointError(metric.Heads(&r.Skeleton), metric.DeformingHeads(truth), rep.Diagonal)
			n := truth.Skeleton.Len()
			t.Logf("%s: %d bones (truth %d, %+.0f%%), joint error%% %.2f, RMSE%% %.3f", k, rep.Bones, n,
				100*float64(rep.Bones-n)/float64(n), je, rep.RMSEPercent)
			if je > 2 {
				t.Errorf("joint error%% %.2f > 2", je)
			}
			if rep.RMSEPercent > 0.3 {
				t.Errorf("RMSE%% %.3f on exact LBS data", rep.RMSEPercent)
			}
			if math.Abs(float64(rep.Bones-n)) > 0.2*float64(n) {
				t.Errorf("%d bones for %d true joints, not within 20%%", rep.Bones, n)
			}
		})
	}
}

// TestClipsShareOneSkeleton rigs two clips of one character together.
func TestClipsShareOneSkeleton(t *testing.T) {
	tube := testrig.Tube(t, 8, linalg.Vec3{})
	a := testrig.Play(t, tube)
	a.Clips[0].Name = "walk"
	b := testrig.Play(t, tube)
	b.Clips[0].Name, b.Clips[0].FPS = "run", 24
	// The second clip plays the frames backwards.
	n := b.N()
	for f := 0; f < b.F()/2; f++ {
		g := b.F() - 1 - f
		for i := 0; i < n; i++ {
			b.Frames[f*n+i], b.Frames[g*n+i] = b.Frames[g*n+i], b.Frames[f*n+i]
		}
	}
	s, err := seq.Merge(a, b)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Rig(context.Background(), s, Options{})
	if err != nil {
		t.Fatal(err)
	}
	rep := rigcheck.Check(t, s, r)
	if len(r.Clips) != 2 || r.Clips[0].Name != "walk" || r.Clips[1].Name != "run" || r.Clips[1].FPS != 24 || r.Clips[1].Frames != 8 {
		t.Fatalf("clips %q", []string{r.Clips[0].Name, r.Clips[1].Name})
	}
	if rep.RMSEPercent > 0.1 {
		t.Errorf("RMSE%% %.3f over both clips", rep.RMSEPercent)
	}
}

// TestBoneCountRobust rigs the two characters whose counts used to swing
// most (biped 16–22, snake 17–31 bones) from other initial cluster
// counts: the count must stay within 20% of the truth whatever the
// over-estimate.
func TestBoneCountRobust(t *testing.T) {
	if testing.Short() {
		t.Skip("rigs four characters")
	}
	for _, k := range []character.Kind{character.Biped, character.Snake} {
		truth, err := character.Generate(k, character.Options{})
		if err != nil {
			t.Fatal(err)
		}
		s := character.Sequence(truth)
		n := truth.Skeleton.Len()
		for _, init := range []int{28, 36} {
			t.Run(fmt.Sprintf("%s/%d", k, init), func(t *testing.T) {
				r, err := Rig(context.Background(), s, Options{InitBones: init})
				if err != nil {
					t.Fatal(err)
				}
				rep := rigcheck.Check(t, s, r)
				t.Logf("%d bones (truth %d), RMSE%% %.3f", rep.Bones, n, rep.RMSEPercent)
				if math.Abs(float64(rep.Bones-n)) > 0.2*float64(n) {
					t.Errorf("%d bones for %d true joints, not within 20%%", rep.Bones, n)
				}
			})
		}
	}
}
