package registry

import (
	"context"
	"math"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/meshrig/meshrig/character"
	"github.com/meshrig/meshrig/format"
	_ "github.com/meshrig/meshrig/format/obj"
	"github.com/meshrig/meshrig/internal/shareddata"
	"github.com/meshrig/meshrig/internal/testkit/testrig"
	"github.com/meshrig/meshrig/internal/testkit/testshape"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/method/refit"
	"github.com/meshrig/meshrig/metric"
	"github.com/meshrig/meshrig/rig"
	"github.com/meshrig/meshrig/rig/edit"
	"github.com/meshrig/meshrig/seq"
)

// TestNames: every name and alias finds its entry, no name is taken
// twice, and the lists put the defaults first.
func TestNames(t *testing.T) {
	seen := map[string]string{}
	for _, tc := range []struct {
		list []*Entry
		find func(string) (*Entry, error)
	}{{Animations(), Animation}, {Statics(), Static}} {
		for _, e := range tc.list {
			for _, name := range append([]string{e.Name}, e.Aliases...) {
				if other, ok := seen[name]; ok {
					t.Errorf("%q names both %s and %s", name, other, e.Name)
				}
				seen[name] = e.Name
				got, err := tc.find(name)
				if err != nil || got != e {
					t.Errorf("%q: %v, %v; want %s", name, got, err, e.Name)
				}
			}
		}
	}
	if got := AnimationNames(); !reflect.DeepEqual(got, []string{"ledeng", "face-clustering", "spectral"}) {
		t.Errorf("AnimationNames() = %v", got)
	}
	if got := StaticNames(); !reflect.DeepEqual(got, []string{"forcefield", "contraction"}) {
		t.Errorf("StaticNames() = %v", got)
	}
	// The animation methods' aliases are the papers' names earlier
	// reports used.
	for alias, want := range map[string]string{"le-deng-2014": "ledeng", "schaefer": "face-clustering", "de-aguiar-2008": "spectral"} {
		if e, err := Animation(alias); err != nil || e.Name != want {
			t.Errorf("%s: %v, %v", alias, e, err)
		}
	}
}

func TestUnknownNamesListTheNames(t *testing.T) {
	for _, tc := range []struct {
		find  func(string) (*Entry, error)
		name  string
		names []string
	}{
		{Animation, "forcefield", AnimationNames()},
		{Animation, "", AnimationNames()},
		{Static, "ledeng", StaticNames()},
	} {
		_, err := tc.find(tc.name)
		if err == nil {
			t.Fatalf("%q found", tc.name)
		}
		if !strings.Contains(err.Error(), tc.name) || !strings.Contains(err.Error(), strings.Join(tc.names, ", ")) {
			t.Errorf("%q: error %q does not name it and list %v", tc.name, err, tc.names)
		}
	}
}

// TestEntriesDocumented: every entry has a paper, a description, its
// functions, and documents the Options fields it reads (real fields, each
// with a default).
func TestEntriesDocumented(t *testing.T) {
	fields := map[string]bool{}
	ty := reflect.TypeOf(Options{})
	for i := 0; i < ty.NumField(); i++ {
		fields[ty.Field(i).Name] = true
	}
	check := func(e *Entry, animation bool) {
		if e.Paper == "" || e.Title == "" || e.Description == "" || len(e.Params) == 0 || e.Refit == nil {
			t.Errorf("%s: paper, description, params or Refit missing", e.Name)
		}
		if animation != (e.Rig != nil) || animation == (e.Skeleton != nil) {
			t.Errorf("%s: Rig and Skeleton do not fit its kind", e.Name)
		}
		for _, p := range e.Params {
			if !fields[p.Field] || p.Default == "" {
				t.Errorf("%s: param %+v is not a documented Options field", e.Name, p)
			}
		}
	}
	for _, e := range Animations() {
		check(e, true)
	}
	for _, e := range Statics() {
		check(e, false)
	}
}

// walker is a small generated biped and its animation.
func walker(t testing.TB) (*rig.Rig, *seq.Sequence) {
	truth, err := character.Generate(character.Biped, character.Options{Frames: 16, Vertices: 1500})
	if err != nil {
		t.Fatal(err)
	}
	return truth, character.Sequence(truth)
}

// TestRigThenRefit rigs the walker with each animation method through the
// registry and refits the result unedited: never worse (the skeleton and
// names kept bit for bit).
func TestRigThenRefit(t *testing.T) {
	_, s := walker(t)
	for _, e := range Animations() {
		t.Run(e.Name, func(t *testing.T) {
			r, err := e.Rig(context.Background(), s, Options{})
			if err != nil {
				t.Fatal(err)
			}
			notWorse(t, s, r, e)
		})
	}
}

// notWorse refits r unedited with e and checks the error did not grow.
func notWorse(t *testing.T, s *seq.Sequence, r *rig.Rig, e *Entry) {
	t.Helper()
	before, err := metric.Compare(s, r)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	out, rep, err := e.Refit(context.Background(), r, s, Options{})
	if err != nil {
		t.Fatal(err)
	}
	after, err := metric.Compare(s, out)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: %d bones, RMSE%% %.4f → refit %.4f (%d rounds, %.2f s)", e.Name, before.Bones, before.RMSEPercent, after.RMSEPercent, rep.Rounds, time.Since(start).Seconds())
	if after.RMSEPercent > before.RMSEPercent+1e-6 {
		t.Errorf("refit made it worse: RMSE%% %.6f → %.6f", before.RMSEPercent, after.RMSEPercent)
	}
	if !reflect.DeepEqual(out.Skeleton, r.Skeleton) {
		t.Error("the skeleton changed")
	}
}

// TestRefitHorseUnedited: ledeng's rig of the shared horse-gallop refitted
// unedited is no worse.
func TestRefitHorseUnedited(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: rigging horse-gallop takes seconds")
	}
	s := loadShared(t, "sequences/horse-gallop")
	e, _ := Animation("ledeng")
	r, err := e.Rig(context.Background(), s, Options{})
	if err != nil {
		t.Fatal(err)
	}
	notWorse(t, s, r, e)
}

// TestStaticSkeletonizeRefit: a static method's rig, through the
// registry, bound again with another scheme keeps its joints.
func TestStaticSkeletonizeRefit(t *testing.T) {
	m := testshape.Join(t, func() ([]linalg.Vec3, [][]int) { return testshape.Box(linalg.Vec3{0, 0, 0}, linalg.Vec3{4, 1, 1}) })
	e, err := Static("contraction")
	if err != nil {
		t.Fatal(err)
	}
	r, err := e.Skeletonize(context.Background(), m, Options{Joints: 4})
	if err != nil {
		t.Fatal(err)
	}
	out, _, err := e.Refit(context.Background(), r, nil, Options{Weights: "rigid"})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(out.Skeleton, r.Skeleton) {
		t.Error("the skeleton changed")
	}
	for i, in := range out.Skin {
		if in.Weight[0] != 1 {
			t.Fatalf("vertex %d: rigid weights %v", i, in.Weight)
		}
	}
}

// BenchmarkRefitHorse: ledeng's rig of the shared horse-gallop with one
// joint removed (the one with the most vertices on it among those with a
// parent and children), refitted. cpu-s/op is the CPU time of one refit
// (all cores): wall time on a loaded machine measures the queue.
func BenchmarkRefitHorse(b *testing.B) {
	s := loadShared(b, "sequences/horse-gallop")
	e, _ := Animation("ledeng")
	r, err := e.Rig(context.Background(), s, Options{})
	if err != nil {
		b.Fatal(err)
	}
	ed := testrig.RemoveJoint(b, r, busiestInnerJoint(r))
	before, _ := metric.Compare(s, ed)
	var out *rig.Rig
	cpu, n := cpuSeconds(), 0
	for b.Loop() {
		if out, _, err = e.Refit(context.Background(), ed, s, Options{}); err != nil {
			b.Fatal(err)
		}
		n++
	}
	cpu = (cpuSeconds() - cpu) / float64(n)
	after, _ := metric.Compare(s, out)
	orig, _ := metric.Compare(s, r)
	b.ReportMetric(after.RMSEPercent, "RMSE%")
	b.ReportMetric(cpu, "cpu-s/op")
	b.Logf("%s removed from %d joints: RMSE%% %.4f (rig) → %.4f (edited) → %.4f (refitted)", busiestInnerJoint(r), r.Skeleton.Len(), orig.RMSEPercent, before.RMSEPercent, after.RMSEPercent)
}

// busiestInnerJoint names the joint with a parent and children that
// carries the most weight.
func busiestInnerJoint(r *rig.Rig) string {
	mass := make([]float64, r.Skeleton.Len())
	for _, in := range r.Skin {
		for k, w := range in.Weight {
			mass[in.Joint[k]] += w
		}
	}
	ch := r.Skeleton.Children()
	best := -1
	for j := 1; j < r.Skeleton.Len(); j++ {
		if len(ch[j]) > 0 && (best < 0 || mass[j] > mass[best]) {
			best = j
		}
	}
	return r.Skeleton.Joints[best].Name
}

func loadShared(tb testing.TB, rel string) *seq.Sequence {
	in, err := format.Load([]string{filepath.Join(shareddata.Path(tb, filepath.Dir(rel)), filepath.Base(rel))}, format.LoadOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	return in.Sequence
}

// TestRefitKeepsScaleTracks: a rig that squashes and stretches (testrig's
// tube with its middle joint scaling, the sequence it plays) refitted
// unedited — both, weights, motion — keeps its scale tracks and comes
// back no worse; refit.Animation alone fits rotations and lost them
// (the cow at 11 bones with --stretch: RMSE% 0.83 → 1.40).
func TestRefitKeepsScaleTracks(t *testing.T) {
	r := testrig.SquashTube(t, 24, linalg.Vec3{}, testrig.AlongBone)
	c := &r.Clips[0]
	s := testrig.Play(t, r)
	// Off the truth: its tip joint turned and its scales a little off,
	// so there is something to fit.
	for f := 0; f < c.Frames; f++ {
		c.Rotation[f*3+2] = c.Rotation[f*3+2].Mul(linalg.QuatFromAxisAngle(linalg.Vec3{0, 0, 1}, 0.1)).Normalize()
		c.Scale[f*3+1][0] *= 1.05
	}
	e, _ := Animation("ledeng")
	for _, solve := range []refit.Solve{refit.Both, refit.Weights, refit.Motion} {
		out, rep, err := e.Refit(context.Background(), r, s, Options{Solve: solve})
		if err != nil {
			t.Fatal(err)
		}
		after, err := metric.Compare(s, out)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%v: RMSE%% %.2g at the start, %.2g after (reported %.2g)", solve, rep.StartRMSEPercent, after.RMSEPercent, rep.RMSEPercent)
		if !out.HasScale() {
			t.Errorf("%v: the scale tracks were lost", solve)
		}
		if solve != refit.Weights && !(after.RMSEPercent < rep.StartRMSEPercent/2) {
			t.Errorf("%v: RMSE%% %.4f from %.4f: the motion was not fitted again", solve, after.RMSEPercent, rep.StartRMSEPercent)
		}
		if after.RMSEPercent > rep.StartRMSEPercent+1e-6 || math.Abs(after.RMSEPercent-rep.RMSEPercent) > 1e-9 {
			t.Errorf("%v: RMSE%% %.6f after, %.6f at the start, %.6f reported", solve, after.RMSEPercent, rep.StartRMSEPercent, rep.RMSEPercent)
		}
	}
	// A mask keeps its vertices' weights bit for bit through the scale
	// tracks' fit too.
	mask := make([]float64, len(r.Skin))
	for i := range mask {
		mask[i] = float64(i % 2)
	}
	out, _, err := RefitAnimation(context.Background(), r, s, refit.Options{Mask: mask})
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range mask {
		if m == 0 && out.Skin[i] != r.Skin[i] {
			t.Fatalf("masked vertex %d: weights %+v, the rig's %+v", i, out.Skin[i], r.Skin[i])
		}
	}
	if !out.HasScale() {
		t.Error("masked refit lost the scale tracks")
	}
}

// TestRefitEditedScaleTracks: a squashing rig whose skeleton was edited
// (a bone split, a joint moved) has its scale tracks reset to ones by the
// edit; the refit fits them again: the result keeps scale tracks and
// fits well under the same edit refitted as a rotation-only rig.
func TestRefitEditedScaleTracks(t *testing.T) {
	r := testrig.SquashTube(t, 24, linalg.Vec3{}, testrig.KeepArea)
	s := testrig.Play(t, r)
	ed, _, err := edit.SplitBone(r, 2, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	if ed, err = edit.MoveJoint(ed, 1, linalg.Vec3{1.1, 0.05, 0}); err != nil {
		t.Fatal(err)
	}
	plain := *ed
	plain.Clips = append(plain.Clips[:0:0], ed.Clips...)
	plain.Clips[0].Scale = nil
	out, _, err := RefitAnimation(context.Background(), ed, s, refit.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rot, _, err := RefitAnimation(context.Background(), &plain, s, refit.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := metric.Compare(s, out)
	if err != nil {
		t.Fatal(err)
	}
	rotOnly, err := metric.Compare(s, rot)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("edited and refitted: RMSE%% %.4f with scale tracks, %.4f rotation-only", got.RMSEPercent, rotOnly.RMSEPercent)
	if !out.HasScale() {
		t.Fatal("the refit lost the scale tracks")
	}
	if !(got.RMSEPercent < rotOnly.RMSEPercent/2) {
		t.Errorf("RMSE%% %.4f with scale tracks: not under half the rotation-only %.4f", got.RMSEPercent, rotOnly.RMSEPercent)
	}
}
