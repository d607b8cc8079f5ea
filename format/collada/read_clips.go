package collada

import (
	"fmt"
	"math"
	"strconv"
)

// clipDef is one clip to sample: channels played together from t0 to t1
// seconds.
type clipDef struct {
	name   string
	el     *elem // the <animation_clip> or top-level <animation>
	t0, t1 float64
	chans  []*animChannel
}

// clipsOf groups the document's animations into clips: one per
// <animation_clip> (its instanced animations, from its start to its end),
// then the top-level animations no clip instances, from their first to
// their last key: together as one clip when no two of them animate the
// same value (tools that write an animation per joint and no clips),
// else one clip each. A top-level animation whose ID an earlier element
// already has is the same animation written twice (assimp does), and is
// read once. Names are made unique with "_2", "_3"…
func (d *doc) clipsOf(sc *sceneData) ([]clipDef, error) {
	var tops []*elem
	for _, a := range d.library("library_animations", "animation") {
		if id := a.get("id"); id == "" || d.ids[id][0] == a {
			tops = append(tops, a)
		}
	}
	cache := map[*elem][]*animChannel{}
	chans := func(a *elem) ([]*animChannel, error) {
		if c, ok := cache[a]; ok {
			return c, nil
		}
		c, err := d.channelsOf(a, sc, nil)
		cache[a] = c
		return c, err
	}
	instanced := map[*elem]bool{}
	var clips []clipDef
	for k, cl := range d.library("library_animation_clips", "animation_clip") {
		c := clipDef{name: firstOf(cl.get("name"), cl.get("id"), fmt.Sprintf("clip_%d", k+1)), el: cl}
		var err error
		if c.t0, err = seconds(cl, "start", 0); err != nil {
			return nil, err
		}
		c.t1 = math.NaN()
		if cl.has("end") {
			if c.t1, err = seconds(cl, "end", 0); err != nil {
				return nil, err
			}
		}
		mine := map[*elem]bool{}
		for _, in := range cl.all("instance_animation") {
			a, err := d.ref(in, "url", in.get("url"), "animation")
			if err != nil {
				return nil, err
			}
			if mine[a] {
				continue // instanced twice: played once
			}
			mine[a], instanced[a] = true, true
			more, err := chans(a)
			if err != nil {
				return nil, err
			}
			c.chans = append(c.chans, more...)
		}
		if math.IsNaN(c.t1) {
			_, c.t1 = span(c.chans, c.t0)
		}
		if c.t1 < c.t0 {
			return nil, cl.errorf("ends at %g s, before its start at %g s", c.t1, c.t0)
		}
		clips = append(clips, c)
	}
	var loose []clipDef
	for k, a := range tops {
		if covered(a, instanced) {
			continue
		}
		cs, err := chans(a)
		if err != nil {
			return nil, err
		}
		if len(cs) > 0 {
			loose = append(loose, clipDef{name: firstOf(a.get("name"), a.get("id"), fmt.Sprintf("animation_%d", k+1)), el: a, chans: cs})
		}
	}
	if len(loose) > 1 && disjoint(loose) {
		all := clipDef{name: "default", el: loose[0].el}
		for _, c := range loose {
			all.chans = append(all.chans, c.chans...)
		}
		loose = []clipDef{all}
	}
	for _, c := range loose {
		c.t0, c.t1 = span(c.chans, math.NaN())
		clips = append(clips, c)
	}
	names := map[string]bool{}
	for k := range clips {
		for n, base := 2, clips[k].name; names[clips[k].name]; n++ {
			clips[k].name = fmt.Sprintf("%s_%d", base, n)
		}
		names[clips[k].name] = true
		if err := clips[k].check(); err != nil {
			return nil, err
		}
	}
	return clips, nil
}

// covered reports whether a or an animation nested in it is instanced.
func covered(a *elem, instanced map[*elem]bool) bool {
	if instanced[a] {
		return true
	}
	for _, k := range a.all("animation") {
		if covered(k, instanced) {
			return true
		}
	}
	return false
}

// disjoint reports whether no value is animated by two of the clips.
func disjoint(clips []clipDef) bool {
	var all []*animChannel
	for _, c := range clips {
		all = append(all, c.chans...)
	}
	return (&clipDef{chans: all}).check() == nil
}

// check refuses a clip in which two channels animate the same value.
func (c *clipDef) check() error {
	type key struct{ node, xf int }
	seen := map[key][16]*animChannel{}
	for _, ch := range c.chans {
		k := key{ch.node, ch.xf}
		s := seen[k]
		for i := ch.off; i < ch.off+ch.n; i++ {
			if s[i] != nil {
				return ch.el.errorf("animates what the channel at line %d animates, in clip %q", s[i].el.line, c.name)
			}
			s[i] = ch
		}
		seen[k] = s
	}
	return nil
}

// span returns the first and last key time of the channels; t0 instead
// of the first when t0 is a number; 0, 0 (or t0, t0) without keys.
func span(chans []*animChannel, t0 float64) (float64, float64) {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, c := range chans {
		lo, hi = math.Min(lo, c.times[0]), math.Max(hi, c.times[len(c.times)-1])
	}
	if !math.IsNaN(t0) {
		lo = t0
	}
	if math.IsInf(lo, 0) {
		lo = 0
	}
	if math.IsInf(hi, 0) {
		hi = lo
	}
	return lo, math.Max(hi, lo)
}

// seconds reads a time attribute.
func seconds(e *elem, name string, def float64) (float64, error) {
	if !e.has(name) {
		return def, nil
	}
	t, err := strconv.ParseFloat(e.get(name), 64)
	if err != nil || math.IsInf(t, 0) || math.IsNaN(t) {
		return 0, e.errorf("%s=%q is not a time in seconds", name, e.get(name))
	}
	return t, nil
}

// firstOf returns the first non-empty string.
func firstOf(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}
