package spantree

// Sets is a union–find forest over the elements 0…n−1: which of them
// the links made so far have connected.
type Sets []int

// NewSets returns n elements, each in a set of its own.
func NewSets(n int) Sets {
	s := make(Sets, n)
	for i := range s {
		s[i] = i
	}
	return s
}

// Find returns the representative of i's set (halving the path to it).
func (s Sets) Find(i int) int {
	for s[i] != i {
		s[i] = s[s[i]]
		i = s[i]
	}
	return i
}

// Union joins the sets of a and b; false when they were one already.
func (s Sets) Union(a, b int) bool {
	ra, rb := s.Find(a), s.Find(b)
	if ra == rb {
		return false
	}
	s[ra] = rb
	return true
}
