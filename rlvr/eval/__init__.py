"""rlvr.eval"""
