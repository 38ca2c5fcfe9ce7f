package whole;

/** Not public: left out. */
class Hidden {
    int get(int x) {
        return x < 0 ? -x : x;
    }
}
