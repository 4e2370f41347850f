"""rlvr.train"""
