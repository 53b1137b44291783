class NullGraphics:
    def initialize(self, state):
        pass
