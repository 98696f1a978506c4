import multiprocessing as mp
def _work(ds, init):
    init(0); ds[0]
class DataLoader:
    def __init__(self, ds, num_workers=1, multiprocessing_context='spawn', worker_init_fn=None):
        self.p = mp.get_context(multiprocessing_context).Process(target=_work, args=(ds, worker_init_fn)); self.p.start()
    def __iter__(self):
        self.p.join(); return iter([])
