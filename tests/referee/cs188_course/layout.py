"""layout, written for pyab's tests: % wall, . food, P Pacman, G ghost."""


class Layout:
    def __init__(self, lines):
        lines = [line for line in lines if line]
        self.height, self.width = len(lines), len(lines[0])
        self.walls, self.food, self.ghosts, self.pacman = set(), set(), [], None
        for row, line in enumerate(lines):
            y = self.height - 1 - row
            for x, c in enumerate(line):
                if c == "%":
                    self.walls.add((x, y))
                elif c == ".":
                    self.food.add((x, y))
                elif c == "P":
                    self.pacman = (x, y)
                elif c == "G":
                    self.ghosts.append((x, y))
