package viewer

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/rig"
	"github.com/meshrig/meshrig/rig/edit"
)

// Edit kinds, as the page sends them.
const (
	EditMove     = "move"     // joint to head (rest pose)
	EditSplit    = "split"    // the bone ending at joint, at t of its length from the parent
	EditAdd      = "add"      // a new child of parent at head
	EditRemove   = "remove"   // joint; its children go to its parent
	EditReparent = "reparent" // joint under parent
	EditRoot     = "root"     // joint becomes the root
	EditRename   = "rename"   // joint to name
)

// maxName bounds a joint name (bytes): any file format takes it.
const maxName = 256

// Edit is one skeleton edit, checked: Joint and Parent are joint ids of
// the current rig, T in (0, 1), Head finite, Name a valid joint name;
// fields a kind does not use are zero.
type Edit struct {
	Kind   string
	Joint  rig.JointID
	Parent rig.JointID
	T      float64
	Head   linalg.Vec3
	Name   string
}

// Editor applies an edit to r without modifying it: the new rig, and the
// map from r's joints to the new rig's (-1: removed; it may hold one entry
// more, a joint the edit added). It fails, leaving r
// as it was, on an edit that would make an invalid rig (removing the
// root, a cycle).
type Editor func(r *rig.Rig, e Edit) (*rig.Rig, []rig.JointID, error)

// editBody is POST /api/edit's JSON; pointers tell a field left out.
type editBody struct {
	Kind   string    `json:"kind"`
	Joint  *int      `json:"joint"`
	Parent *int      `json:"parent"`
	T      *float64  `json:"t"`
	Head   []float64 `json:"head"`
	Name   *string   `json:"name"`
}

// check turns the body into an Edit against a skeleton of n joints:
// every field the kind needs present and in range, no other field given.
func (b editBody) check(sk *rig.Skeleton) (Edit, error) {
	var need []string
	switch b.Kind {
	case EditMove, EditAdd:
		need = []string{"head"}
		if b.Kind == EditMove {
			need = append(need, "joint")
		} else {
			need = append(need, "parent")
		}
	case EditSplit:
		need = []string{"joint", "t"}
	case EditRemove, EditRoot:
		need = []string{"joint"}
	case EditReparent:
		need = []string{"joint", "parent"}
	case EditRename:
		need = []string{"joint", "name"}
	case "":
		return Edit{}, fmt.Errorf(`missing "kind" (move, split, add, remove, reparent, root or rename)`)
	default:
		return Edit{}, fmt.Errorf("unknown edit kind %q (want move, split, add, remove, reparent, root or rename)", b.Kind)
	}
	given := map[string]bool{"joint": b.Joint != nil, "parent": b.Parent != nil, "t": b.T != nil, "head": b.Head != nil, "name": b.Name != nil}
	for _, f := range need {
		if !given[f] {
			return Edit{}, fmt.Errorf("%s needs %q", b.Kind, f)
		}
		delete(given, f)
	}
	for f, ok := range given {
		if ok {
			return Edit{}, fmt.Errorf("%s takes no %q", b.Kind, f)
		}
	}
	e := Edit{Kind: b.Kind, Joint: -1, Parent: -1}
	n := sk.Len()
	joint := func(field string, v *int) (rig.JointID, error) {
		if *v < 0 || *v >= n {
			return 0, fmt.Errorf("%q %d: no such joint (the rig has joints 0 to %d)", field, *v, n-1)
		}
		return rig.JointID(*v), nil
	}
	var err error
	if b.Joint != nil {
		if e.Joint, err = joint("joint", b.Joint); err != nil {
			return Edit{}, err
		}
	}
	if b.Parent != nil {
		if e.Parent, err = joint("parent", b.Parent); err != nil {
			return Edit{}, err
		}
	}
	if b.T != nil {
		if !(*b.T > 0 && *b.T < 1) {
			return Edit{}, fmt.Errorf(`"t" %v: want a fraction strictly between 0 and 1`, *b.T)
		}
		e.T = *b.T
	}
	if b.Head != nil {
		if len(b.Head) != 3 {
			return Edit{}, fmt.Errorf(`"head" has %d numbers: want [x, y, z]`, len(b.Head))
		}
		e.Head = linalg.Vec3(b.Head)
		if !e.Head.IsFinite() {
			return Edit{}, fmt.Errorf(`"head" %v: want three finite numbers`, b.Head)
		}
		// A joint a thousand diagonals away is a typing slip, and far
		// enough to wreck the float32 precision of every file.
		if lim := 1e3 * skeletonScale(sk); e.Head.Norm() > lim {
			return Edit{}, fmt.Errorf(`"head" %v is over %.3g from the origin: far outside the model`, b.Head, lim)
		}
	}
	if b.Name != nil {
		name := *b.Name
		switch {
		case strings.TrimSpace(name) == "":
			return Edit{}, fmt.Errorf(`"name" is empty`)
		case !utf8.ValidString(name) || strings.ContainsFunc(name, func(r rune) bool { return r < ' ' || r == 0x7f }):
			return Edit{}, fmt.Errorf(`"name" %q holds invalid or control characters`, name)
		case len(name) > maxName:
			return Edit{}, fmt.Errorf(`"name" is %d bytes long (at most %d)`, len(name), maxName)
		}
		for j, jt := range sk.Joints {
			if jt.Name == name && rig.JointID(j) != e.Joint {
				return Edit{}, fmt.Errorf("joint %d is already named %q", j, name)
			}
		}
		e.Name = name
	}
	return e, nil
}

// skeletonScale is the size of the skeleton and its origin: the largest
// head coordinate, at least 1.
func skeletonScale(sk *rig.Skeleton) float64 {
	s := 1.0
	for _, jt := range sk.Joints {
		s = math.Max(s, jt.Head.Norm())
	}
	return s
}

func (s *Server) postEdit(w http.ResponseWriter, r *http.Request) {
	var b editBody
	if !decode(w, r, &b) {
		return
	}
	s.mu.Lock()
	cur := s.hist.current()
	version := s.hist.version
	s.mu.Unlock()
	e, err := b.check(&cur.rig.Skeleton)
	if err != nil {
		fail(w, http.StatusBadRequest, "%v", err)
		return
	}
	next, m, err := s.opt.Edit(cur.rig, e)
	if err == nil {
		err = next.Validate()
	}
	if err != nil {
		fail(w, http.StatusBadRequest, "%s: %v", e.Kind, err)
		return
	}
	st, err := s.measure(next)
	if err != nil {
		fail(w, http.StatusBadRequest, "%s: %v", e.Kind, err)
		return
	}
	st.jointMap = m
	s.mu.Lock()
	defer s.mu.Unlock()
	// Edits are quick but run outside the lock; one that raced another
	// change would undo it silently.
	if s.hist.version != version {
		fail(w, http.StatusConflict, "the rig changed during the edit; try again")
		return
	}
	s.hist.push(st)
	if scalesReset(cur.rig, next) {
		s.logf("%s: the scale tracks (squash and stretch) are reset to one on the edited skeleton; re-solve fits them again", e.Kind)
	}
	writeJSON(w, http.StatusOK, s.state(true))
}

// scalesReset reports whether an edit of before gave after other scale
// tracks (rig/edit resets them to ones where the skeleton changed).
func scalesReset(before, after *rig.Rig) bool {
	for k := range before.Clips {
		if before.Clips[k].HasScale() && !slices.Equal(before.Clips[k].Scale, after.Clips[k].Scale) {
			return true
		}
	}
	return false
}

func (s *Server) postUndo(w http.ResponseWriter, r *http.Request) {
	s.change(w, r, "undo", (*history).undo)
}

func (s *Server) postRedo(w http.ResponseWriter, r *http.Request) {
	s.change(w, r, "redo", (*history).redo)
}

// change runs undo or redo. The body, if any, must be empty or {}.
func (s *Server) change(w http.ResponseWriter, r *http.Request, what string, do func(*history) bool) {
	if !emptyBody(w, r) {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !do(&s.hist) {
		fail(w, http.StatusBadRequest, "nothing to %s", what)
		return
	}
	writeJSON(w, http.StatusOK, s.state(true))
}

// emptyBody accepts no body, or whitespace, or an empty JSON object; on
// anything else it has answered 400 (413 when over the limit) and returns
// false.
func emptyBody(w http.ResponseWriter, r *http.Request) bool {
	if r.Body == nil {
		return true
	}
	b, err := io.ReadAll(r.Body)
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		fail(w, http.StatusRequestEntityTooLarge, "request body is over the %d-byte limit", MaxBody)
		return false
	case err != nil:
		fail(w, http.StatusBadRequest, "reading the request: %v", err)
		return false
	case len(bytes.TrimSpace(b)) == 0:
		return true
	}
	r.Body = io.NopCloser(bytes.NewReader(b))
	var v struct{}
	return decode(w, r, &v)
}

// ApplyEdit is the default Editor: package rig/edit's Apply. For split
// and add its map has one entry more than r has joints, the new joint's
// id, so the page can select it.
func ApplyEdit(r *rig.Rig, e Edit) (*rig.Rig, []rig.JointID, error) {
	return edit.Apply(r, edit.Op{Kind: e.Kind, Joint: int(e.Joint), Parent: int(e.Parent), T: e.T, Head: e.Head, Name: e.Name})
}
