package skeletonshape

import (
	"fmt"
	"math"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/method/static"
)

// Layouts Name recognizes.
const (
	Biped     = "biped"
	Quadruped = "quadruped"
)

// Name names the joints of s, symmetric about plane, when it has a biped
// or quadruped layout: exactly two mirrored pairs of limbs (chains off
// the plane hanging from joints on it) and up the direction the feet are
// down from. Two pairs whose tips all lie below both attachments are a
// quadruped's legs (the pair nearer the highest tip on the plane, the
// head, in front); otherwise the lower tips are a biped's feet. Names
// follow the common convention: hips and chest where the hind and front
// limbs attach, spine between, neck and head beyond the chest, tail
// beyond the hips, thigh–shin–foot and upper_arm–forearm–hand along the
// limbs (.001, … for joints in between), .L on the side the plane's
// normal points to and .R on the other. Joints off the main chains
// (fingers, ears) stay unnamed. It returns the layout, or "" and nil
// when s has neither.
func Name(s *static.Skeleton, plane Plane, up linalg.Vec3, d float64) (string, []string) {
	n := len(s.Joints)
	mirror := func(j int) int {
		r := plane.Reflect(s.Joints[j])
		for k, q := range s.Joints {
			if q.Dist(r) < 1e-6*d {
				return k
			}
		}
		return -1
	}
	on := make([]bool, n)
	for j := range s.Joints {
		m := mirror(j)
		if m < 0 {
			return "", nil // not symmetric
		}
		on[j] = m == j
	}
	parent, order := s.Tree()
	children := make([][]int, n)
	for _, j := range order[1:] {
		children[parent[j]] = append(children[parent[j]], j)
	}
	size := make([]int, n)
	for k := len(order) - 1; k >= 0; k-- {
		j := order[k]
		size[j] = 1
		for _, c := range children[j] {
			size[j] += size[c]
		}
	}
	// Limbs: off-plane joints on the normal's side hanging from the plane.
	type limb struct{ chain []int }
	var limbs []limb
	for _, j := range order[1:] {
		if on[j] || !on[parent[j]] || plane.Side(s.Joints[j]) <= 0 {
			continue
		}
		chain := []int{j}
		for cur := j; len(children[cur]) > 0; {
			next := children[cur][0]
			for _, c := range children[cur] {
				if size[c] > size[next] {
					next = c
				}
			}
			if on[next] {
				break
			}
			chain = append(chain, next)
			cur = next
		}
		limbs = append(limbs, limb{chain})
	}
	if len(limbs) != 2 {
		return "", nil
	}
	height := func(j int) float64 { return s.Joints[j].Dot(up) }
	tip := func(l limb) int { return l.chain[len(l.chain)-1] }
	attach := func(l limb) int { return parent[l.chain[0]] }
	// The head: the highest joint on the plane with no children.
	head := -1
	for j := range s.Joints {
		if on[j] && len(children[j]) == 0 && (head < 0 || height(j) > height(head)) {
			head = j
		}
	}
	if head < 0 {
		return "", nil
	}
	lowAttach := math.Min(height(attach(limbs[0])), height(attach(limbs[1])))
	layout := Biped
	if height(tip(limbs[0])) < lowAttach && height(tip(limbs[1])) < lowAttach {
		layout = Quadruped
	}
	hind, front := limbs[0], limbs[1]
	if layout == Biped {
		if height(tip(hind)) > height(tip(front)) {
			hind, front = front, hind
		}
	} else {
		dh := s.Joints[attach(hind)].Dist(s.Joints[head])
		df := s.Joints[attach(front)].Dist(s.Joints[head])
		if dh < df {
			hind, front = front, hind
		}
	}
	hips, chest := attach(hind), attach(front)
	if hips == chest {
		return "", nil
	}
	names := make([]string, n)
	set := func(j int, name string) {
		names[j] = name
		if m := mirror(j); m != j && names[m] == "" {
			names[m] = name[:len(name)-2] + ".R"
		}
	}
	numbered := func(base string, k int) string {
		if k == 0 {
			return base
		}
		return fmt.Sprintf("%s.%03d", base, k)
	}
	// Spine: the plane path hips → chest, then chest → head.
	path := func(a, b int) []int {
		depthOf := map[int]int{}
		for x, k := a, 0; x >= 0; x, k = parent[x], k+1 {
			depthOf[x] = k
		}
		var down []int
		x := b
		for ; x >= 0; x = parent[x] {
			if _, ok := depthOf[x]; ok {
				break
			}
			down = append(down, x)
		}
		var out []int
		for y := a; y != x; y = parent[y] {
			out = append(out, y)
		}
		out = append(out, x)
		for k := len(down) - 1; k >= 0; k-- {
			out = append(out, down[k])
		}
		return out
	}
	spine := path(hips, chest)
	for k, j := range spine[1 : len(spine)-1] {
		names[j] = numbered("spine", k)
	}
	neck := path(chest, head)
	for k, j := range neck[1 : len(neck)-1] {
		names[j] = numbered("neck", k)
	}
	names[hips], names[chest], names[head] = "hips", "chest", "head"
	// Tail: a plane chain from the hips away from the chest.
	for _, c := range append(children[hips], parent[hips]) {
		if c < 0 || !on[c] || contains(spine, c) {
			continue
		}
		k := 0
		for cur := c; cur >= 0 && on[cur] && names[cur] == ""; k++ {
			names[cur] = numbered("tail", k)
			next := -1
			for _, x := range children[cur] {
				if on[x] {
					next = x
				}
			}
			cur = next
		}
	}
	limbNames := func(l limb, first, mid, last string) {
		c := l.chain
		for k, j := range c {
			switch {
			case k == 0:
				set(j, first+".L")
			case k == len(c)-1:
				set(j, last+".L")
			default:
				set(j, numbered(mid, k-1)+".L")
			}
		}
	}
	limbNames(hind, "thigh", "shin", "foot")
	limbNames(front, "upper_arm", "forearm", "hand")
	return layout, names
}

func contains(list []int, x int) bool {
	for _, y := range list {
		if y == x {
			return true
		}
	}
	return false
}
