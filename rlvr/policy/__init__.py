"""rlvr.policy"""
