package viewer_test

import (
	"fmt"
	"image"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/meshrig/meshrig/character"
	"github.com/meshrig/meshrig/rig"
	"github.com/meshrig/meshrig/viewer"
)

// changed returns the fraction of pixels in r that differ between a and b
// by more than tol in some channel.
func changed(a, b image.Image, r image.Rectangle, tol int) float64 {
	r = r.Intersect(a.Bounds()).Intersect(b.Bounds())
	if r.Empty() {
		return 0
	}
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if differs(a, x, y, rgbAt(b, x, y), tol) {
				n++
			}
		}
	}
	return float64(n) / float64(r.Dx()*r.Dy())
}

// settle waits for the page to draw what it was just told to.
func (s *session) settle() {
	time.Sleep(250 * time.Millisecond)
}

// serverState reads the server's State.
func (s *session) serverState() viewer.State {
	s.t.Helper()
	var st viewer.State
	s.api("/api/state", &st)
	return st
}

// edited waits until the page shows the server's rig with n joints.
func (s *session) edited(what string, n int) viewer.State {
	s.t.Helper()
	s.wait(what, fmt.Sprintf(`meshrig.jointCount() === %d && meshrig.state().ui.loadedVersion === meshrig.state().version`, n), 20*time.Second)
	st := s.serverState()
	if len(st.Joints) != n {
		s.t.Fatalf("%s: the server's rig has %d joints, want %d", what, len(st.Joints), n)
	}
	if v := eval[int](s, `meshrig.state().version`); v != st.Version {
		s.t.Fatalf("%s: the page shows version %d, the server has %d", what, v, st.Version)
	}
	return st
}

// TestBrowserTools drives the page's other tools as a person would, with
// clicks, drags and keys: colour modes, wireframe, posing with the gizmo
// and resetting, every skeleton edit with undo and redo, the help overlay.
func TestBrowserTools(t *testing.T) {
	r, err := character.Generate(character.Biped, character.Options{Frames: 8, Vertices: 1200})
	if err != nil {
		t.Fatal(err)
	}
	s := open(t, viewer.Options{Rig: r, Input: character.Sequence(r), Name: "biped.glb"}, "")
	n := r.Skeleton.Len()
	js := s.joints()
	var body image.Rectangle
	for _, p := range js {
		q := image.Pt(int(p.X), int(p.Y))
		body = body.Union(image.Rectangle{q.Sub(image.Pt(20, 20)), q.Add(image.Pt(20, 20))})
	}

	// A joint with children, so posing it moves a limb.
	j := s.clickJoint(`j.parent >= 0 && meshrig.state().joints.some((c) => c.parent === i)`)
	name := r.Skeleton.Joints[j].Name
	s.settle()
	base := s.screenshot()

	// C: the next colour mode, the selected joint's weights.
	s.do(chromedp.KeyEvent("c"))
	if m := eval[string](s, `meshrig.state().ui.colorMode`); m != "weights" {
		t.Fatalf("C switched the colour mode to %q, want weights", m)
	}
	s.settle()
	if f := changed(base, s.screenshot(), body, 24); f < 0.05 {
		t.Errorf("weights colouring changed %.1f%% of the body's pixels", 100*f)
	}
	// W: wireframe on and off.
	s.do(chromedp.KeyEvent("w"))
	s.settle()
	wire := s.screenshot()
	if f := changed(base, wire, body, 24); f < 0.05 {
		t.Errorf("wireframe changed %.1f%% of the body's pixels", 100*f)
	}
	s.do(chromedp.KeyEvent("w"), chromedp.KeyEvent("c"), chromedp.KeyEvent("c"), chromedp.KeyEvent("c"))
	if m := eval[string](s, `meshrig.state().ui.colorMode`); m != "joint" {
		t.Fatalf("four presses of C came back to %q, want joint", m)
	}

	// G: the input drawn as a ghost over the rig.
	s.settle()
	plain := s.screenshot()
	s.do(chromedp.KeyEvent("g"))
	s.wait("the ghost", `document.getElementById('ghost').checked`, 5*time.Second)
	s.settle()
	if f := changed(plain, s.screenshot(), body, 8); f < 0.02 {
		t.Errorf("the ghost changed %.1f%% of the body's pixels", 100*f)
	}
	s.do(chromedp.KeyEvent("g"))

	// Pose: the Pose button, then a drag from the joint's centre (the
	// gizmo's free-rotation ball) turns the limb; Reset pose undoes it.
	s.do(chromedp.Click(chromedp.CSS(`[data-tool="pose"]`)))
	s.settle()
	posing := s.screenshot()
	p := eval[point](s, fmt.Sprintf(`meshrig.jointScreen(%d)`, j))
	s.do(
		chromedp.MouseEvent(chromedp.MouseMoved, p.X, p.Y),
		chromedp.MouseEvent(chromedp.MousePressed, p.X, p.Y, chromedp.ButtonLeft, chromedp.ClickCount(1)),
		chromedp.MouseEvent(chromedp.MouseMoved, p.X+30, p.Y+10, chromedp.ButtonLeft),
		chromedp.MouseEvent(chromedp.MouseMoved, p.X+60, p.Y+20, chromedp.ButtonLeft),
		chromedp.MouseEvent(chromedp.MouseReleased, p.X+60, p.Y+20, chromedp.ButtonLeft, chromedp.ClickCount(1)),
	)
	s.settle()
	posed := s.screenshot()
	moved := changed(posing, posed, body, 24)
	t.Logf("posing %s moved %.1f%% of the body's pixels", name, 100*moved)
	if moved < 0.01 {
		t.Errorf("dragging the rotate gizmo of %s changed only %.2f%% of the body's pixels", name, 100*moved)
	}
	if got := eval[int](s, `meshrig.state().ui.selected`); got != j {
		t.Errorf("the drag changed the selection to %d", got)
	}
	s.do(chromedp.Click(chromedp.ID("reset-pose")))
	s.settle()
	if f := changed(posing, s.screenshot(), body, 24); f > 0.002 {
		t.Errorf("after Reset pose %.2f%% of the body's pixels still differ", 100*f)
	}
	s.do(chromedp.Click(chromedp.CSS(`[data-tool="select"]`)))

	// Split the bone ending at the joint: one joint more, the selection
	// follows the joint by State.map; Ctrl+Z and Ctrl+Y.
	s.do(chromedp.Click(chromedp.ID("split")))
	st := s.edited("split", n+1)
	sel := eval[int](s, `meshrig.state().ui.selected`)
	if kids := childNames(st, sel); sel < 0 || len(kids) != 1 || kids[0] != name {
		t.Fatalf("after split the page selects %d, want the new joint above %s", sel, name)
	}
	s.do(chromedp.KeyEvent("z", chromedp.KeyModifiers(chromedp.ModifierCtrl)))
	s.edited("undo", n)
	s.do(chromedp.KeyEvent("y", chromedp.KeyModifiers(chromedp.ModifierCtrl)))
	s.edited("redo", n+1)
	s.do(chromedp.Click(chromedp.ID("undo")))
	st = s.edited("undo button", n)
	if !st.CanRedo {
		t.Error("after undo the server cannot redo")
	}
	if sel := eval[int](s, `meshrig.state().ui.selected`); sel >= 0 {
		t.Errorf("after undoing the split, joint %d (%s) is still selected", sel, st.Joints[sel].Name)
	}
	s.clickJoint(fmt.Sprintf(`j.name === %q`, name))

	// Add a child to the selected joint.
	s.do(chromedp.Click(chromedp.ID("add-child")))
	st = s.edited("add child", n+1)
	sel = eval[int](s, `meshrig.state().ui.selected`)
	if sel < 0 || st.Joints[sel].Parent < 0 || st.Joints[st.Joints[sel].Parent].Name != name {
		t.Fatalf("after Add child the page selects %d, want the new child of %s", sel, name)
	}
	if kids := childNames(st, st.Joints[sel].Parent); len(kids) != len(childrenOf(r, j))+1 {
		t.Errorf("after Add child %s has children %v, want %d", name, kids, len(childrenOf(r, j))+1)
	}
	s.do(chromedp.KeyEvent("z", chromedp.KeyModifiers(chromedp.ModifierCtrl)))
	s.edited("undo", n)
	s.clickJoint(fmt.Sprintf(`j.name === %q`, name))

	// Rename and move by typed coordinates.
	s.do(chromedp.SetValue(chromedp.ID("rename-to"), "e2e_joint"), chromedp.Click(chromedp.ID("rename")))
	s.wait("rename", `meshrig.state().joints[meshrig.state().ui.selected].name === 'e2e_joint'`, 10*time.Second)
	sel = eval[int](s, `meshrig.state().ui.selected`)
	if st = s.serverState(); st.Joints[sel].Name != "e2e_joint" {
		t.Fatalf("server joint %d is named %q after Rename", sel, st.Joints[sel].Name)
	}
	head := st.Joints[sel].Head
	want := head[0] + 0.01*st.Diagonal
	s.do(chromedp.SetValue(chromedp.ID("head-x"), fmt.Sprint(want)), chromedp.Click(chromedp.ID("move-apply")))
	s.wait("move", fmt.Sprintf(`meshrig.state().version > %d`, st.Version), 10*time.Second)
	st = s.serverState()
	if got := st.Joints[sel].Head[0]; math.Abs(got-want) > 1e-6*st.Diagonal {
		t.Errorf("after Set, joint x = %v, want %v", got, want)
	}

	// M: the move tool; a drag from the joint's centre (the gizmo's
	// view-plane handle) moves it in the rest pose, sent when released.
	s.do(chromedp.KeyEvent("m"))
	s.settle()
	mp := eval[point](s, fmt.Sprintf(`meshrig.jointScreen(%d)`, sel))
	s.do(
		chromedp.MouseEvent(chromedp.MouseMoved, mp.X, mp.Y),
		chromedp.MouseEvent(chromedp.MousePressed, mp.X, mp.Y, chromedp.ButtonLeft, chromedp.ClickCount(1)),
		chromedp.MouseEvent(chromedp.MouseMoved, mp.X+15, mp.Y, chromedp.ButtonLeft),
		chromedp.MouseEvent(chromedp.MouseMoved, mp.X+30, mp.Y, chromedp.ButtonLeft),
		chromedp.MouseEvent(chromedp.MouseReleased, mp.X+30, mp.Y, chromedp.ButtonLeft, chromedp.ClickCount(1)),
	)
	s.wait("drag move", fmt.Sprintf(`meshrig.state().version > %d && meshrig.state().ui.loadedVersion === meshrig.state().version`, st.Version), 10*time.Second)
	moved2 := s.serverState()
	if d := dist(moved2.Joints[sel].Head, st.Joints[sel].Head); d < 1e-3*st.Diagonal {
		t.Errorf("dragging the move gizmo moved the joint %.2g (d = %.3g)", d, st.Diagonal)
	}
	// The handle under the pointer may hold the move to an axis or a plane,
	// so the joint need not follow the pointer exactly, but it goes its way.
	if after := eval[point](s, fmt.Sprintf(`meshrig.jointScreen(%d)`, sel)); after.X-mp.X < 10 || math.Abs(after.Y-mp.Y) > after.X-mp.X {
		t.Errorf("dragged 30 px right, the joint is drawn (%+.1f, %+.1f) px away", after.X-mp.X, after.Y-mp.Y)
	} else {
		t.Logf("dragged 30 px right, the joint is drawn (%+.1f, %+.1f) px away", after.X-mp.X, after.Y-mp.Y)
	}
	s.do(chromedp.KeyEvent("q"))
	st = moved2

	// Reparent: the button, then a click on the new parent (the root).
	root := -1
	for i, jt := range st.Joints {
		if jt.Parent < 0 {
			root = i
		}
	}
	s.do(chromedp.Click(chromedp.ID("reparent")))
	rp := eval[point](s, fmt.Sprintf(`meshrig.jointScreen(%d)`, root))
	s.do(chromedp.MouseClickXY(rp.X, rp.Y))
	s.wait("reparent", fmt.Sprintf(`meshrig.state().version > %d && meshrig.state().ui.loadedVersion === meshrig.state().version`, st.Version), 10*time.Second)
	st = s.serverState()
	sel = eval[int](s, `meshrig.state().ui.selected`)
	if st.Joints[sel].Name != "e2e_joint" || st.Joints[st.Joints[sel].Parent].Parent != -1 {
		t.Errorf("after Reparent onto the root, joint %d (%s) has parent %d", sel, st.Joints[sel].Name, st.Joints[sel].Parent)
	}

	// O: the selected joint becomes the root.
	s.do(chromedp.KeyEvent("o"))
	s.wait("set root", fmt.Sprintf(`meshrig.state().version > %d && meshrig.state().ui.loadedVersion === meshrig.state().version`, st.Version), 10*time.Second)
	st = s.serverState()
	sel = eval[int](s, `meshrig.state().ui.selected`)
	if st.Joints[sel].Name != "e2e_joint" || st.Joints[sel].Parent != -1 {
		t.Errorf("after O, joint %d (%s) has parent %d, want the root", sel, st.Joints[sel].Name, st.Joints[sel].Parent)
	}
	if !st.Dirty || !eval[bool](s, `!document.getElementById('dirty').hidden`) {
		t.Error("edited and unsaved, but no unsaved marker")
	}

	// Refusals show as an error and leave the rig as it was: removing the
	// root (refused by the page), reparenting a joint under its own child
	// (refused by the server, whose message is shown).
	v := st.Version
	s.clickJoint(`j.parent < 0`)
	s.do(chromedp.KeyEvent(kb.Delete))
	s.wait("the root refused", `document.getElementById('toast').classList.contains('error')`, 5*time.Second)
	if msg := eval[string](s, `document.getElementById('toast').textContent`); !strings.Contains(msg, "root") {
		t.Errorf("removing the root: the page says %q", msg)
	}
	parent := s.clickJoint(`j.parent >= 0 && meshrig.state().joints.some((c) => c.parent === i)`)
	child := -1
	for i, jt := range s.serverState().Joints {
		if jt.Parent == parent {
			child = i
		}
	}
	s.do(chromedp.Click(chromedp.ID("reparent")))
	cp := eval[point](s, fmt.Sprintf(`meshrig.jointScreen(%d)`, child))
	s.do(chromedp.MouseClickXY(cp.X, cp.Y))
	s.wait("the cycle refused", `(meshrig.state().ui.lastError || '').length > 0 && !/root/.test(meshrig.state().ui.lastError)`, 10*time.Second)
	t.Logf("reparenting joint %d under its child %d: %q", parent, child, eval[string](s, `meshrig.state().ui.lastError`))
	if st := s.serverState(); st.Version != v || eval[int](s, `meshrig.state().version`) != v {
		t.Errorf("a refused edit changed the rig: version %d → %d", v, st.Version)
	}
	s.expectError("status of 400") // the browser logs the refused request

	// ? opens the help with the shortcuts listed, Esc closes it.
	s.do(chromedp.KeyEvent("?"))
	if rows := eval[int](s, `document.getElementById('help').hidden ? -1 : document.querySelectorAll('#help-keys tr').length`); rows < 15 {
		t.Errorf("help overlay: %d shortcut rows (-1: not shown)", rows)
	}
	s.do(chromedp.KeyEvent(kb.Escape))
	if !eval[bool](s, `document.getElementById('help').hidden`) {
		t.Error("Esc left the help open")
	}
}

func dist(a, b [3]float64) float64 {
	return math.Sqrt((a[0]-b[0])*(a[0]-b[0]) + (a[1]-b[1])*(a[1]-b[1]) + (a[2]-b[2])*(a[2]-b[2]))
}

// childNames lists the names of joint j's children in st.
func childNames(st viewer.State, j int) []string {
	var out []string
	for _, jt := range st.Joints {
		if jt.Parent == j {
			out = append(out, jt.Name)
		}
	}
	return out
}

// childrenOf lists joint j's children in r.
func childrenOf(r *rig.Rig, j int) []int {
	var out []int
	for k, jt := range r.Skeleton.Joints {
		if int(jt.Parent) == j {
			out = append(out, k)
		}
	}
	return out
}
